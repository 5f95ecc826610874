import en from '../../i18n/en.json';
import zhCN from '../../i18n/zh-CN.json';
import type { AppLocale } from './locales';

// Flat catalogs at the repository root (i18n/), shared with the server's `server.` keys.

export type Catalog = Record<string, string>;

export const catalogs: Record<AppLocale, Catalog> = { en, cn: zhCN };
