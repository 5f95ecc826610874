import type { ComponentType } from 'react';
import { loadAllTexts } from '../i18n/catalogs';
import { getCurrentLocale } from '../i18n/currentIntl';
import { lazyComponent, type LazyComponent } from './lazyComponent';

/**
 * A page whose code and texts download side by side and which renders once both are here: only
 * the sign-in pages' and the frame's texts are in the first download (i18n/catalogParts.ts). The
 * sign-in, sign-up, password and not-found pages, whose texts are all there, use lazyComponent.
 * The language is the one on screen: the I18nProvider records it before its pages render.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  return lazyComponent(() => Promise.all([load(), loadAllTexts(getCurrentLocale())]).then(([page]) => page));
}
