import { useEffect } from 'react';
import { useIntl } from 'react-intl';

/** Sets the tab title to "<page> · Stepwise" in the current language. */
export function usePageTitle(messageId: string): void {
  const intl = useIntl();
  const title = intl.formatMessage({ id: messageId });
  const app = intl.formatMessage({ id: 'app.name' });
  useEffect(() => {
    document.title = title === app ? app : `${title} · ${app}`;
  }, [title, app]);
}
