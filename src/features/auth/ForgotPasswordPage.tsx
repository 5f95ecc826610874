import { Alert, Button, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { usePageTitle } from '../../app/usePageTitle';
import { AuthLayout } from '../../components/AuthLayout';
import { useRequestPasswordResetMutation } from './authApi';
import { AuthForm, AuthLink, useAuthForm } from './AuthForm';
import { emailProblem } from './validation';

export function ForgotPasswordPage() {
  usePageTitle('auth.forgot.title');
  const intl = useIntl();
  const [requestReset, { isLoading }] = useRequestPasswordResetMutation();
  const form = useAuthForm({ email: '' });
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = async () => {
    const { email } = form.values;
    if (!form.check({ email: emailProblem(email) })) return;
    const result = await requestReset({ email: email.trim() });
    // The server answers the same whether or not the account exists; its message is shown as a
    // notice, and the card switches to a "check your inbox" state.
    if ('data' in result) setSentTo(email.trim());
  };

  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const title = t('auth.forgot.title');
  const subtitle = t('auth.forgot.subtitle');
  const backToSignIn = <AuthLink to="/login">{t('auth.backToSignIn')}</AuthLink>;

  if (sentTo) {
    return (
      <AuthLayout title={title} subtitle={subtitle} footer={backToSignIn}>
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
      </AuthLayout>
    );
  }

  return (
    <AuthForm
      title={title}
      subtitle={subtitle}
      footer={backToSignIn}
      form={form}
      fields={[{ field: 'email', label: t('auth.field.email'), type: 'email', name: 'email', autoComplete: 'email', autoFocus: true }]}
      submitLabel={t('auth.forgot.submit')}
      submitting={isLoading}
      onSubmit={onSubmit}
    />
  );
}
