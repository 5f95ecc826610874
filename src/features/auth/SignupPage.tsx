import { Button, Link, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { AuthLayout } from '../../components/AuthLayout';
import { TextField } from '../../components/TextField';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useLocalePath } from '../../i18n/useLocale';
import { useGetSignupModeQuery } from '../beta/betaApi';
import { useSignupMutation } from './authApi';
import type { LoginPageState } from './LoginPage';
import { useFieldErrors } from './useFieldErrors';
import { emailProblem, MIN_PASSWORD_LENGTH, newPasswordProblem, requiredProblem } from './validation';

export function SignupPage() {
  usePageTitle('auth.signup.pageTitle');
  const intl = useIntl();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [signup, { isLoading }] = useSignupMutation();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // An invitation link (…/signup?code=STEP-7K2M-Q9XD) fills the code in.
  const [searchParams] = useSearchParams();
  const [invitationCode, setInvitationCode] = useState(() => searchParams.get('code')?.trim() ?? '');
  // Until the mode is known the code is optional: the server has the last word either way.
  const inviteOnly = useGetSignupModeQuery().data?.invite_only ?? false;
  const { check, clear, errorFor, showServerErrors } = useFieldErrors<'name' | 'email' | 'password' | 'invitationCode'>();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const valid = check({
      name: requiredProblem(name, 'validation.name.required'),
      email: emailProblem(email),
      password: newPasswordProblem(password),
      invitationCode: inviteOnly ? requiredProblem(invitationCode, 'auth.field.invitationCode.required') : null,
    });
    if (!valid) return;
    const code = invitationCode.trim();
    const result = await signup({ name: name.trim(), email: email.trim(), password, ...(code ? { invitation_code: code } : {}) });
    // The server's welcome message is shown by the notices middleware; errors likewise.
    if ('data' in result) {
      const state: LoginPageState = { email: email.trim() };
      navigate(localePath('/login'), { state });
    } else {
      // e.g. a password that is long enough but easy to guess: said where it is typed.
      showServerErrors(result.error, { name: 'name', email: 'email', password: 'password', invitation_code: 'invitationCode' });
    }
  };

  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  return (
    <AuthLayout
      title={t('auth.signup.title')}
      subtitle={t('auth.signup.subtitle')}
      footer={
        <FormattedMessage
          id="auth.signup.haveAccount"
          values={{
            link: (text) => (
              <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="semibold">
                <LocaleLink to="/login">{text}</LocaleLink>
              </Link>
            ),
          }}
        />
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="5">
          <TextField
            label={t('auth.field.name')}
            name="name"
            autoComplete="name"
            autoFocus
            value={name}
            error={errorFor('name')}
            onChange={(e) => {
              setName(e.target.value);
              clear('name');
            }}
          />
          <TextField
            label={t('auth.field.email')}
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            error={errorFor('email')}
            onChange={(e) => {
              setEmail(e.target.value);
              clear('email');
            }}
          />
          <TextField
            label={t('auth.field.password')}
            type="password"
            name="password"
            autoComplete="new-password"
            helperText={t('auth.field.passwordHint', { min: MIN_PASSWORD_LENGTH })}
            value={password}
            error={errorFor('password')}
            onChange={(e) => {
              setPassword(e.target.value);
              clear('password');
            }}
          />
          <TextField
            label={t(inviteOnly ? 'auth.field.invitationCode' : 'auth.field.invitationCodeOptional')}
            name="invitation_code"
            autoComplete="off"
            spellCheck={false}
            maxLength={40}
            required={inviteOnly}
            helperText={t(inviteOnly ? 'auth.field.invitationCode.hintRequired' : 'auth.field.invitationCode.hint')}
            value={invitationCode}
            error={errorFor('invitationCode')}
            onChange={(e) => {
              setInvitationCode(e.target.value);
              clear('invitationCode');
            }}
          />
          <Button type="submit" colorPalette="brand" size="lg" loading={isLoading}>
            {t('auth.signup.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
