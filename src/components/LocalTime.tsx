import { useIntl } from 'react-intl';

/**
 * A moment from the server (ISO 8601, UTC) in the reader's time zone and language: the date and
 * time, or the time alone (`timeOnly`, for lines of one log) with the full date on hover.
 */
export function LocalTime({ value, timeOnly = false }: { value: string; timeOnly?: boolean }) {
  const intl = useIntl();
  const full = intl.formatDate(value, { dateStyle: 'medium', timeStyle: 'medium' });
  return (
    <time dateTime={value} title={full}>
      {timeOnly ? intl.formatTime(value, { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : full}
    </time>
  );
}
