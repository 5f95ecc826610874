import { Button, Flex, Link, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Navigate, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { usePageTitle } from '../../app/usePageTitle';
import { AuthLayout } from '../../components/AuthLayout';
import { TextField } from '../../components/TextField';
import { LocaleLink } from '../../i18n/LocaleLink';
import { stripLocalePrefix } from '../../i18n/locales';
import { useLocalePath } from '../../i18n/useLocale';
import { selectAuth } from './authSlice';
import { login } from './authThunks';
import { useFieldErrors } from './useFieldErrors';
import { emailProblem, requiredProblem } from './validation';

/** What other pages may hand to the sign-in page through router state. */
export interface LoginPageState {
  /** Pre-fills the email (after signing up). */
  email?: string;
  /** Where to go once signed in (path with its language prefix). */
  from?: string;
}

function returnPath(from: string | undefined): string | null {
  if (!from || stripLocalePrefix(from.split(/[?#]/)[0]) === '/login') return null;
  return from;
}

export function LoginPage() {
  usePageTitle('auth.login.pageTitle');
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const localePath = useLocalePath();
  const state = (useLocation().state ?? {}) as LoginPageState;
  const { isAuthenticated } = useAppSelector(selectAuth);
  const [email, setEmail] = useState(state.email ?? '');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const { check, clear, errorFor } = useFieldErrors<'email' | 'password'>();

  // Signing in flips isAuthenticated; this sends the user on (also if they open /login signed in).
  if (isAuthenticated) return <Navigate to={returnPath(state.from) ?? localePath('/')} replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const valid = check({ email: emailProblem(email), password: requiredProblem(password, 'validation.password.required') });
    if (!valid) return;
    setSubmitting(true);
    try {
      await dispatch(login({ email: email.trim(), password })).unwrap();
    } catch {
      // Wrong credentials, rate limit, network: the notices middleware has shown the reason.
      setSubmitting(false);
    }
  };

  const t = (id: string) => intl.formatMessage({ id });
  return (
    <AuthLayout
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      footer={
        <FormattedMessage
          id="auth.login.noAccount"
          values={{
            link: (text) => (
              <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="semibold">
                <LocaleLink to="/signup">{text}</LocaleLink>
              </Link>
            ),
          }}
        />
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="5">
          <TextField
            label={t('auth.field.email')}
            type="email"
            name="email"
            autoComplete="email"
            autoFocus={!state.email}
            value={email}
            error={errorFor('email')}
            onChange={(e) => {
              setEmail(e.target.value);
              clear('email');
            }}
          />
          <Stack gap="2">
            <TextField
              label={t('auth.field.password')}
              type="password"
              name="password"
              autoComplete="current-password"
              autoFocus={Boolean(state.email)}
              value={password}
              error={errorFor('password')}
              onChange={(e) => {
                setPassword(e.target.value);
                clear('password');
              }}
            />
            <Flex justify="flex-end">
              <Link asChild textStyle="sm" colorPalette="brand" color="colorPalette.fg">
                <LocaleLink to="/forgot-password">{t('auth.login.forgot')}</LocaleLink>
              </Link>
            </Flex>
          </Stack>
          <Button type="submit" colorPalette="brand" size="lg" loading={submitting}>
            {t('auth.login.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
