import { Alert, Button, Link, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { AuthLayout } from '../../components/AuthLayout';
import { TextField } from '../../components/TextField';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useLocalePath } from '../../i18n/useLocale';
import { useResetPasswordMutation } from './authApi';
import { useFieldErrors } from './useFieldErrors';
import { MIN_PASSWORD_LENGTH, newPasswordProblem } from './validation';

export function ResetPasswordPage() {
  usePageTitle('auth.reset.title');
  const intl = useIntl();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const token = useSearchParams()[0].get('token') ?? '';
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { check, clear, errorFor, showServerErrors } = useFieldErrors<'password' | 'confirm'>();

  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  const requestNewLink = (
    <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="semibold">
      <LocaleLink to="/forgot-password">{t('auth.reset.requestNew')}</LocaleLink>
    </Link>
  );

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

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const valid = check({
      password: newPasswordProblem(password),
      confirm: !confirm ? 'validation.confirm.required' : confirm !== password ? 'validation.confirm.mismatch' : null,
    });
    if (!valid) return;
    const result = await resetPassword({ token, new_password: password });
    // Success and failure texts come from the server through the notices middleware.
    if ('data' in result) navigate(localePath('/login'), { replace: true });
    else showServerErrors(result.error, { new_password: 'password' });
  };

  return (
    <AuthLayout title={t('auth.reset.title')} subtitle={t('auth.reset.subtitle')} footer={requestNewLink}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="5">
          <TextField
            label={t('auth.field.newPassword')}
            type="password"
            name="new-password"
            autoComplete="new-password"
            autoFocus
            helperText={t('auth.field.passwordHint', { min: MIN_PASSWORD_LENGTH })}
            value={password}
            error={errorFor('password')}
            onChange={(e) => {
              setPassword(e.target.value);
              clear('password');
            }}
          />
          <TextField
            label={t('auth.field.confirmPassword')}
            type="password"
            name="confirm-password"
            autoComplete="new-password"
            value={confirm}
            error={errorFor('confirm')}
            onChange={(e) => {
              setConfirm(e.target.value);
              clear('confirm');
            }}
          />
          <Button type="submit" colorPalette="brand" size="lg" loading={isLoading}>
            {t('auth.reset.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
