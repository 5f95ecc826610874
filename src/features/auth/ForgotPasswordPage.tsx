import { Alert, Button, Link, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { usePageTitle } from '../../app/usePageTitle';
import { AuthLayout } from '../../components/AuthLayout';
import { TextField } from '../../components/TextField';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useRequestPasswordResetMutation } from './authApi';
import { useFieldErrors } from './useFieldErrors';
import { emailProblem } from './validation';

export function ForgotPasswordPage() {
  usePageTitle('auth.forgot.title');
  const intl = useIntl();
  const [requestReset, { isLoading }] = useRequestPasswordResetMutation();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { check, clear, errorFor } = useFieldErrors<'email'>();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check({ email: emailProblem(email) })) return;
    const result = await requestReset({ email: email.trim() });
    // The server answers the same whether or not the account exists; its message is shown as a
    // notice, and the card switches to a "check your inbox" state.
    if ('data' in result) setSentTo(email.trim());
  };

  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const backToSignIn = (
    <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="semibold">
      <LocaleLink to="/login">{t('auth.backToSignIn')}</LocaleLink>
    </Link>
  );

  return (
    <AuthLayout title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')} footer={backToSignIn}>
      {sentTo ? (
        <Stack gap="5">
          <Alert.Root status="success" variant="subtle" rounded="l3">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('auth.forgot.sentTitle')}</Alert.Title>
              <Alert.Description>{t('auth.forgot.sentBody', { email: sentTo })}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
          <Button variant="outline" onClick={() => setSentTo(null)}>
            {t('auth.forgot.tryAgain')}
          </Button>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="5">
            <TextField
              label={t('auth.field.email')}
              type="email"
              name="email"
              autoComplete="email"
              autoFocus
              value={email}
              error={errorFor('email')}
              onChange={(e) => {
                setEmail(e.target.value);
                clear('email');
              }}
            />
            <Button type="submit" colorPalette="brand" size="lg" loading={isLoading}>
              {t('auth.forgot.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
