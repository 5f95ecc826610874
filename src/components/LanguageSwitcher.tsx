import { Button, type ButtonProps } from '@chakra-ui/react';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { userUpdated, selectUser } from '../features/auth/authSlice';
import { useSaveLanguageMutation } from '../features/users/usersApi';
import { useLocale, useSwitchLocale } from '../i18n/useLocale';
import type { AppLocale } from '../i18n/locales';
import { LuLanguages } from './firstLoadIcons';

// Offers the other language, named in that language ("中文" on English pages, "English" on Chinese
// ones), which is how people look for it. The choice is remembered in NEXT_LOCALE and, when signed
// in, saved to the account, whose language wins on the next sign-in (UserLocaleSync).
export function LanguageSwitcher(props: ButtonProps) {
  const locale = useLocale();
  const switchLocale = useSwitchLocale();
  const signedIn = useAppSelector(selectUser) !== null;
  const dispatch = useAppDispatch();
  const [saveLanguage] = useSaveLanguageMutation();
  const target: AppLocale = locale === 'cn' ? 'en' : 'cn';

  const onClick = () => {
    switchLocale(target);
    if (!signedIn) return;
    // A failure was already shown by the notices middleware; the page stays switched.
    void saveLanguage(target)
      .unwrap()
      .then((saved) => dispatch(userUpdated({ locale: saved.locale })))
      .catch(() => undefined);
  };

  return (
    <Button variant="ghost" size="sm" onClick={onClick} lang={target === 'cn' ? 'zh-CN' : 'en'} {...props}>
      <LuLanguages aria-hidden />
      {target === 'cn' ? '中文' : 'English'}
    </Button>
  );
}
