import fs from 'node:fs';
import path from 'node:path';

/**
 * The server's user-facing texts (error details, notices, emails) live in the same catalogs as the
 * React app's, under keys starting with `server.`, so one file per language holds every string a
 * person reads. The client sends Accept-Language; we answer in Chinese for zh*, else English.
 */
export type Language = 'en' | 'zh-CN';

const catalogDir = path.resolve(__dirname, '../../../i18n');

function loadCatalog(language: Language): Record<string, string> {
  const all = JSON.parse(fs.readFileSync(path.join(catalogDir, `${language}.json`), 'utf8')) as Record<string, string>;
  return Object.fromEntries(Object.entries(all).filter(([key]) => key.startsWith('server.')));
}

const catalogs: Record<Language, Record<string, string>> = { en: loadCatalog('en'), 'zh-CN': loadCatalog('zh-CN') };

export type MessageValues = Record<string, string | number>;

export function translate(language: Language, key: string, values: MessageValues = {}): string {
  const template = catalogs[language][key] ?? catalogs.en[key];
  if (template === undefined) throw new Error(`Missing server message "${key}"`);
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export function hasMessage(key: string): boolean {
  return key in catalogs.en;
}

/** `zh`, `zh-CN`, `zh-Hans;q=0.9,…` → zh-CN; anything else → en. The stored user locale `cn` maps the same way. */
export function languageFrom(acceptLanguage: string | undefined): Language {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('zh') || first === 'cn' ? 'zh-CN' : 'en';
}
