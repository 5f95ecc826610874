import { Link as RouterLink, type LinkProps } from 'react-router-dom';
import { useLocalePath } from './useLocale';

/** A router link whose `to` is an app path ('/signup'); the language prefix is added for you. */
export function LocaleLink({ to, ...props }: Omit<LinkProps, 'to'> & { to: string }) {
  const localePath = useLocalePath();
  return <RouterLink to={localePath(to)} {...props} />;
}
