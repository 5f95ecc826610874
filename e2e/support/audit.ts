import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

// Checks a page as a whole, the way a reviewer would look at it in each theme and language:
// can every text be read against what is behind it, and is anything left in English in the
// Chinese interface. Journeys call them on every screen they pass (see tour.e2e.ts).

export interface LowContrast {
  text: string;
  ratio: number;
  needed: number;
  color: string;
  background: string;
}

/**
 * Visible texts whose contrast with their background is below WCAG AA (4.5:1, 3:1 for large
 * text). Colours are resolved by the browser itself (a 1×1 canvas), so any CSS colour syntax the
 * theme uses (oklch, color-mix, rgba) is measured as painted. Disabled controls are exempt, as in
 * WCAG; texts over images or gradients are skipped, since there is no single background to measure.
 */
export function lowContrastTexts(page: Page): Promise<LowContrast[]> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    const rgba = (css: string): [number, number, number, number] => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = '#000';
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const over = (top: [number, number, number, number], under: [number, number, number]): [number, number, number] =>
      [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])) as [number, number, number];
    const luminance = (c: [number, number, number]) => {
      const [r, g, b] = c.map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };

    /** The colour painted behind `el`: its own and its ancestors' backgrounds, stacked. Null when an image or gradient is in the way. */
    const backgroundOf = (el: Element): { colour: [number, number, number]; opacity: number } | null => {
      const layers: [number, number, number, number][] = [];
      let opacity = 1;
      for (let node: Element | null = el; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.backgroundImage !== 'none') return null;
        const layer = rgba(style.backgroundColor);
        if (layers.length === 0 || layer[3] === 0) opacity *= Number(style.opacity);
        if (layer[3] > 0) layers.push(layer);
        if (layer[3] === 1) break;
      }
      let colour: [number, number, number] = [255, 255, 255];
      for (const layer of layers.reverse()) colour = over(layer, colour);
      return { colour, opacity };
    };

    const found: { text: string; ratio: number; needed: number; color: string; background: string }[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || seen.has(el) || !node.textContent?.trim()) continue;
      seen.add(el);
      if (el.closest('[disabled], [aria-disabled="true"], [aria-hidden="true"], svg, script, style, noscript')) continue;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || style.visibility !== 'visible' || el.checkVisibility?.({ opacityProperty: true }) === false) continue;
      const background = backgroundOf(el);
      if (!background) continue;
      const text = rgba(style.color);
      const painted = over([text[0], text[1], text[2], text[3] * background.opacity], background.colour);
      const [hi, lo] = [luminance(painted), luminance(background.colour)].sort((a, b) => b - a);
      const ratio = (hi + 0.05) / (lo + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const needed = large ? 3 : 4.5;
      // 0.05 of slack: anti-aliased colours from the theme's scale land a hair either side.
      if (ratio + 0.05 < needed) {
        found.push({
          text: node.textContent.trim().slice(0, 60),
          ratio: Math.round(ratio * 100) / 100,
          needed,
          color: `rgb(${painted.map(Math.round).join(',')})`,
          background: `rgb(${background.colour.map(Math.round).join(',')})`,
        });
      }
    }
    return found;
  });
}

type Catalog = Record<string, unknown>;

function flatten(catalog: Catalog, prefix = '', into = new Map<string, string>()): Map<string, string> {
  for (const [key, value] of Object.entries(catalog)) {
    const id = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') into.set(id, value);
    else if (value && typeof value === 'object') flatten(value as Catalog, id, into);
  }
  return into;
}

/** Words that read the same in both interfaces (names and formats). */
const SAME_IN_BOTH = new Set(['Stepwise', 'CSV', 'JSON', 'Parquet', 'URL', 'HTTP', 'ID', 'Email', 'GitHub']);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Patterns that match the English interface's texts which Chinese translates differently: each
 * English catalog value, its simple `{name}` arguments standing for anything. Plural and select
 * messages are left out (their English words appear in their own branches, which are matched).
 */
export function englishOnlyTexts(webRoot: string): RegExp[] {
  const read = (file: string) => flatten(JSON.parse(fs.readFileSync(path.join(webRoot, 'i18n', file), 'utf8')) as Catalog);
  const english = read('en.json');
  const chinese = read('zh-CN.json');
  const patterns: RegExp[] = [];
  for (const [id, value] of english) {
    if (chinese.get(id) === value || SAME_IN_BOTH.has(value) || /\{[^}]*,/.test(value)) continue;
    // A text that is mostly its arguments ("{count} KB") could match the user's own data.
    if (!/[A-Za-z]{3}/.test(value.replace(/\{[^}]*\}/g, ''))) continue;
    // A joiner ("{first} and {second}") would match any text with the word in it: data and code
    // examples in Chinese texts ("age >= 18 and country = 'NL'"), English titles users gave.
    if (/^(and|or)$/.test(value.replace(/\{[^}]*\}/g, ' ').trim())) continue;
    const source = value
      .split(/\{[A-Za-z0-9_]+\}/)
      .map((part) => escapeRegExp(part.trim()))
      .join('.+');
    patterns.push(new RegExp(`^${source}$`));
  }
  return patterns;
}

/** Visible texts, accessible names and tooltips on the page that are English catalog texts. */
export async function untranslatedTexts(page: Page, english: RegExp[]): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      // Key caps (<kbd>) show what is printed on the keys, which is English on Chinese keyboards too.
      if (!el || el.closest('script, style, noscript, kbd') || !el.checkVisibility?.()) continue;
      const text = node.textContent?.trim();
      if (text) out.add(text);
    }
    for (const el of Array.from(document.querySelectorAll('[aria-label], [title], [placeholder]'))) {
      for (const name of ['aria-label', 'title', 'placeholder']) {
        const value = el.getAttribute(name)?.trim();
        if (value) out.add(value);
      }
    }
    return [...out];
  });
  return texts.filter((text) => english.some((pattern) => pattern.test(text)));
}
