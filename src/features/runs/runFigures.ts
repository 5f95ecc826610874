import type { IntlShape } from 'react-intl';

// A run's figures as the lists show them (the executions page, the run history, the dashboard).

const unit = (intl: IntlShape, value: number, name: 'hour' | 'minute' | 'second') =>
  intl.formatNumber(value, { style: 'unit', unit: name, unitDisplay: 'narrow', maximumFractionDigits: name === 'second' ? 1 : 0 });

/**
 * How long a run took, in the page's language: "0.4s", "45s", "2m 5s", "1h 2m" (units and their
 * spelling from Intl: 2分钟5秒 in Chinese). Null (not ended yet) reads as a dash.
 */
export function formatRunDuration(intl: IntlShape, ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 60_000) return unit(intl, ms < 10_000 ? Math.round(ms / 100) / 10 : Math.round(ms / 1000), 'second');
  const totalSeconds = Math.round(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const parts =
    hours > 0
      ? [unit(intl, hours, 'hour'), minutes ? unit(intl, minutes, 'minute') : '']
      : [unit(intl, minutes, 'minute'), seconds ? unit(intl, seconds, 'second') : ''];
  // Joined as the language joins units: "2m 5s", "2分钟5秒".
  return new Intl.ListFormat(intl.locale, { type: 'unit', style: 'narrow' }).format(parts.filter(Boolean));
}

/** The editor showing this run on its canvas. */
export const runLink = (run: { id: string; workflow_id: string }) => `/workflows/${run.workflow_id}?run=${encodeURIComponent(run.id)}`;
