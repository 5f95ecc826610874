import { Alert } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { AuthLayout } from '../../components/AuthLayout';
import { useLocalePath } from '../../i18n/useLocale';
import { useResetPasswordMutation } from './authApi';
import { AuthForm, AuthLink, useAuthForm } from './AuthForm';
import { MIN_PASSWORD_LENGTH, newPasswordProblem } from './validation';

export function ResetPasswordPage() {
  usePageTitle('auth.reset.title');
  const intl = useIntl();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const token = useSearchParams()[0].get('token') ?? '';
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  const form = useAuthForm({ password: '', confirm: '' });

  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  const requestNewLink = <AuthLink to="/forgot-password">{t('auth.reset.requestNew')}</AuthLink>;

  if (!token) {
    return (
      <AuthLayout title={t('auth.reset.title')}>
        <Alert.Root status="warning" variant="subtle" rounded="l3">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('auth.reset.missingTokenTitle')}</Alert.Title>
            <Alert.Description>{t('auth.reset.missingTokenBody')}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
        {requestNewLink}
      </AuthLayout>
    );
  }

  const onSubmit = async () => {
    const { password, confirm } = form.values;
    const valid = form.check({
      password: newPasswordProblem(password),
      confirm: !confirm ? 'validation.confirm.required' : confirm !== password ? 'validation.confirm.mismatch' : null,
    });
    if (!valid) return;
    const result = await resetPassword({ token, new_password: password });
    // Success and failure texts come from the server through the notices middleware.
    if ('data' in result) navigate(localePath('/login'), { replace: true });
    else form.showServerErrors(result.error, { new_password: 'password' });
  };

  return (
    <AuthForm
      title={t('auth.reset.title')}
      subtitle={t('auth.reset.subtitle')}
      footer={requestNewLink}
      form={form}
      fields={[
        {
          field: 'password',
          label: t('auth.field.newPassword'),
          type: 'password',
          name: 'new-password',
          autoComplete: 'new-password',
          autoFocus: true,
          helperText: t('auth.field.passwordHint', { min: MIN_PASSWORD_LENGTH }),
        },
        { field: 'confirm', label: t('auth.field.confirmPassword'), type: 'password', name: 'confirm-password', autoComplete: 'new-password' },
      ]}
      submitLabel={t('auth.reset.submit')}
      submitting={isLoading}
      onSubmit={onSubmit}
    />
  );
}
