import type { Language } from '../i18n/messages';

/** Values put into an email's HTML body: a person's name or subject must not become markup. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The language of a user's stored locale (`cn` or `en`), for mail written to them. */
export const languageOfLocale = (locale: string): Language => (locale === 'cn' ? 'zh-CN' : 'en');

/** The web app's path prefix of that locale: Chinese pages live under /cn. */
export const localePath = (locale: string): string => (locale === 'cn' ? '/cn' : '');
