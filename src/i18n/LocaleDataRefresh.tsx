import { useEffect, useRef } from 'react';
import { useAppDispatch } from '../app/hooks';
import { baseApi } from '../services/baseApi';
import { useLocale } from './useLocale';

/** Cached answers whose texts the server writes in the request's language (Accept-Language). */
const LOCALISED_TAGS = ['StepInfo', 'Workflow', 'Commit', 'Variable'] as const;

/**
 * When the page changes language, refetches what the server localised, so a catalogue, cost notes
 * or history fetched in English do not stay English on the Chinese page (issue 8). The request
 * goes out after the provider has switched, so it carries the new Accept-Language.
 */
export function LocaleDataRefresh() {
  const locale = useLocale();
  const dispatch = useAppDispatch();
  const previous = useRef(locale);
  useEffect(() => {
    if (previous.current === locale) return;
    previous.current = locale;
    dispatch(baseApi.util.invalidateTags([...LOCALISED_TAGS]));
  }, [locale, dispatch]);
  return null;
}
