import { useIntl } from 'react-intl';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 hours ago" / "3 小时前", with the exact time on hover. */
export function RelativeTime({ value }: { value: string }) {
  const intl = useIntl();
  const seconds = (new Date(value).getTime() - Date.now()) / 1000;
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? ['second', 1];
  const text =
    unit === 'second' ? intl.formatMessage({ id: 'common.justNow' }) : intl.formatRelativeTime(Math.round(seconds / size), unit, { numeric: 'auto' });
  return (
    <time dateTime={value} title={intl.formatDate(value, { dateStyle: 'medium', timeStyle: 'short' })}>
      {text}
    </time>
  );
}
