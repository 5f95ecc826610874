import { IntlMessageFormat } from 'intl-messageformat';
import en from '../../i18n/en.json';
import zh from '../../i18n/zh-CN.json';

// The expression checker's messages are rendered by two formatters: the server's plain `{name}`
// replacement (server/src/i18n/messages.ts) and, as the user types, the browser's ICU formatter.
// ICU reads an apostrophe before a brace as quoting ('{token}' prints "{token}"), so a text must
// come out the same from both, or the browser shows a broken message the server never would.

const serverFormat = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

describe('messages the server and the browser both render', () => {
  it.each([
    ['en', en],
    ['zh-CN', zh],
  ] as const)('read the same from both formatters in %s', (locale, catalog) => {
    const shared = Object.entries(catalog as Record<string, string>).filter(([key]) => key.startsWith('server.expressions.'));
    expect(shared.length).toBeGreaterThan(10);
    for (const [key, template] of shared) {
      const values = Object.fromEntries([...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, `<${name}>`]));
      expect({ key, text: new IntlMessageFormat(template, locale).format(values) }).toEqual({ key, text: serverFormat(template, values) });
    }
  });
});
