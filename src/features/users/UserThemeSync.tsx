import { useTheme } from 'next-themes';
import { useEffect } from 'react';
import { useAppSelector } from '../../app/hooks';
import { selectUser } from '../auth/authSlice';

/** Applies the signed-in user's saved theme, so it follows them to any browser they sign in on. */
export function UserThemeSync() {
  const theme = useAppSelector(selectUser)?.theme;
  const { setTheme } = useTheme();
  useEffect(() => {
    if (theme) setTheme(theme);
  }, [theme, setTheme]);
  return null;
}
