import { Text } from '@chakra-ui/react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { usePageTitle } from '../../app/usePageTitle';
import { useLocalePath } from '../../i18n/useLocale';
import { useGetSignupModeQuery } from '../beta/betaApi';
import { INVITATION_CODE_MAX } from '../beta/betaTypes';
import { useSignupMutation } from './authApi';
import { AuthForm, AuthLink, useAuthForm } from './AuthForm';
import { selectAuth } from './authSlice';
import { login } from './authThunks';
import type { LoginPageState } from './LoginPage';
import { emailProblem, MIN_PASSWORD_LENGTH, newPasswordProblem, requiredProblem } from './validation';

export function SignupPage() {
  usePageTitle('auth.signup.pageTitle');
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const { isAuthenticated } = useAppSelector(selectAuth);
  const [signup, { isLoading }] = useSignupMutation();
  const [signingIn, setSigningIn] = useState(false);
  // An invitation link (…/signup?code=STEP-7K2M-Q9XD) fills the code in.
  const [searchParams] = useSearchParams();
  const form = useAuthForm({ name: '', email: '', password: '', invitationCode: searchParams.get('code')?.trim() ?? '' });
  const inviteOnly = useGetSignupModeQuery().data?.invite_only ?? false;

  // Signed in (just now, or already): where a signed-in user lands, as after signing in.
  if (isAuthenticated) return <Navigate to={localePath('/')} replace />;

  const onSubmit = async () => {
    const { name, email, password, invitationCode } = form.values;
    // The code is never required here, even when sign-up is invite-only: some emails (ADMIN_EMAILS)
    // need none, and only the server knows which. Without one it answers why, under the field.
    const valid = form.check({
      name: requiredProblem(name, 'validation.name.required'),
      email: emailProblem(email),
      password: newPasswordProblem(password),
    });
    if (!valid) return;
    const code = invitationCode.trim();
    const result = await signup({ name: name.trim(), email: email.trim(), password, ...(code ? { invitation_code: code } : {}) });
    // The server's welcome message is shown by the notices middleware; errors likewise.
    if (!('data' in result)) {
      // e.g. a password that is long enough but easy to guess: said where it is typed.
      form.showServerErrors(result.error, { name: 'name', email: 'email', password: 'password', invitation_code: 'invitationCode' });
      return;
    }
    // Signed in with what was just typed, as the sign-in page would (the token comes from the
    // login call, spec §3); once the user is loaded, the check above sends them on.
    setSigningIn(true);
    try {
      await dispatch(login({ email: email.trim(), password })).unwrap();
    } catch {
      setSigningIn(false);
      // The account exists; signing in failed (rate limit, network), and the notice says why.
      const state: LoginPageState = { email: email.trim() };
      navigate(localePath('/login'), { state });
    }
  };

  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  return (
    <AuthForm
      title={t('auth.signup.title')}
      subtitle={t('auth.signup.subtitle')}
      footer={<FormattedMessage id="auth.signup.haveAccount" values={{ link: (text) => <AuthLink to="/login">{text}</AuthLink> }} />}
      form={form}
      fields={[
        { field: 'name', label: t('auth.field.name'), name: 'name', autoComplete: 'name', autoFocus: true },
        { field: 'email', label: t('auth.field.email'), type: 'email', name: 'email', autoComplete: 'email' },
        {
          field: 'password',
          label: t('auth.field.password'),
          type: 'password',
          name: 'password',
          autoComplete: 'new-password',
          helperText: t('auth.field.passwordHint', { min: MIN_PASSWORD_LENGTH }),
        },
        {
          field: 'invitationCode',
          label: t(inviteOnly ? 'auth.field.invitationCode' : 'auth.field.invitationCodeOptional'),
          name: 'invitation_code',
          autoComplete: 'off',
          spellCheck: false,
          maxLength: INVITATION_CODE_MAX,
          helperText: t(inviteOnly ? 'auth.field.invitationCode.hintRequired' : 'auth.field.invitationCode.hint'),
          below: inviteOnly && (
            <Text textStyle="sm" color="fg.muted">
              <FormattedMessage
                id="auth.signup.askForCode"
                values={{
                  link: (text) => (
                    <AuthLink to="/request-invitation" subtle>
                      {text}
                    </AuthLink>
                  ),
                }}
              />
            </Text>
          ),
        },
      ]}
      submitLabel={t('auth.signup.submit')}
      submitting={isLoading || signingIn}
      onSubmit={onSubmit}
    />
  );
}
