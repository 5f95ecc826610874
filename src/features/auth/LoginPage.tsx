import { Flex } from '@chakra-ui/react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Navigate, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { usePageTitle } from '../../app/usePageTitle';
import { stripLocalePrefix } from '../../i18n/locales';
import { useLocalePath } from '../../i18n/useLocale';
import { AuthForm, AuthLink, useAuthForm } from './AuthForm';
import { selectAuth } from './authSlice';
import { login } from './authThunks';
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
  const form = useAuthForm({ email: state.email ?? '', password: '' });
  const [submitting, setSubmitting] = useState(false);

  // Signing in flips isAuthenticated; this sends the user on (also if they open /login signed in).
  if (isAuthenticated) return <Navigate to={returnPath(state.from) ?? localePath('/')} replace />;

  const onSubmit = async () => {
    const { email, password } = form.values;
    const valid = form.check({ email: emailProblem(email), password: requiredProblem(password, 'validation.password.required') });
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
    <AuthForm
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      footer={<FormattedMessage id="auth.login.noAccount" values={{ link: (text) => <AuthLink to="/signup">{text}</AuthLink> }} />}
      form={form}
      fields={[
        { field: 'email', label: t('auth.field.email'), type: 'email', name: 'email', autoComplete: 'email', autoFocus: !state.email },
        {
          field: 'password',
          label: t('auth.field.password'),
          type: 'password',
          name: 'password',
          autoComplete: 'current-password',
          autoFocus: Boolean(state.email),
          below: (
            <Flex justify="flex-end">
              <AuthLink to="/forgot-password" subtle>
                {t('auth.login.forgot')}
              </AuthLink>
            </Flex>
          ),
        },
      ]}
      submitLabel={t('auth.login.submit')}
      submitting={submitting}
      onSubmit={onSubmit}
    />
  );
}
