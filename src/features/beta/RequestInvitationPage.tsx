import { Alert, Button, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Navigate } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';
import { usePageTitle } from '../../app/usePageTitle';
import { AuthLayout } from '../../components/AuthLayout';
import { TextAreaField } from '../../components/TextAreaField';
import { TextField } from '../../components/TextField';
import { useLocalePath } from '../../i18n/useLocale';
import { AuthLink, useAuthForm } from '../auth/AuthForm';
import { selectAuth } from '../auth/authSlice';
import { emailProblem, requiredProblem } from '../auth/validation';
import { useRequestInvitationMutation } from './betaApi';
import { COMPANY_MAX, HEARD_FROM_MAX, USE_CASE_MAX, VISITOR_EMAIL_MAX, VISITOR_NAME_MAX } from './betaTypes';

type Field = 'email' | 'name' | 'useCase' | 'company' | 'heardFrom';

/**
 * `/request-invitation`: a visitor without an account asks for an invitation code while sign-up is
 * invite-only (linked from the sign-up page). Signed in, the beta page does this for the account.
 * Dressed as the auth pages, but its texts come with the rest of the catalog (a lazyPage), so the
 * sign-in page's first download does not carry them.
 */
export function RequestInvitationPage() {
  usePageTitle('beta.visitor.pageTitle');
  const intl = useIntl();
  const localePath = useLocalePath();
  const { isAuthenticated } = useAppSelector(selectAuth);
  const form = useAuthForm<Field>({ email: '', name: '', useCase: '', company: '', heardFrom: '' });
  const [request, { isLoading }] = useRequestInvitationMutation();
  const [sentTo, setSentTo] = useState<string | null>(null);

  if (isAuthenticated) return <Navigate to={localePath('/beta')} replace />;

  const t = (id: string) => intl.formatMessage({ id });
  const haveCode = <FormattedMessage id="beta.visitor.haveCode" values={{ link: (text) => <AuthLink to="/signup">{text}</AuthLink> }} />;

  if (sentTo) {
    return (
      <AuthLayout title={t('beta.visitor.sent.title')} footer={haveCode}>
        <Alert.Root status="success" variant="subtle" rounded="lg">
          <Alert.Indicator />
          <Alert.Description>
            <FormattedMessage id="beta.visitor.sent.body" values={{ email: sentTo }} />
          </Alert.Description>
        </Alert.Root>
      </AuthLayout>
    );
  }

  const { values } = form;
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const valid = form.check({ email: emailProblem(values.email), useCase: requiredProblem(values.useCase, 'beta.useCase.required') });
    if (!valid) return;
    const optional = (value: string) => value.trim() || undefined;
    const email = values.email.trim();
    const result = await request({
      email,
      use_case: values.useCase.trim(),
      name: optional(values.name),
      company: optional(values.company),
      heard_from: optional(values.heardFrom),
    });
    // The server's thanks is shown by the notices middleware; so are its refusals, which also go under their fields.
    if ('data' in result) setSentTo(email);
    else form.showServerErrors(result.error, { email: 'email', name: 'name', use_case: 'useCase', company: 'company', heard_from: 'heardFrom' });
  };

  const field = (name: Field) => ({
    value: values[name],
    error: form.errorFor(name),
    onChange: (event: { target: { value: string } }) => form.change(name, event.target.value),
  });
  return (
    <AuthLayout title={t('beta.visitor.title')} subtitle={t('beta.visitor.subtitle')} footer={haveCode}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="5">
          <TextField label={t('auth.field.email')} type="email" name="email" autoComplete="email" autoFocus maxLength={VISITOR_EMAIL_MAX} {...field('email')} />
          <TextField label={t('beta.visitor.name')} name="name" autoComplete="name" maxLength={VISITOR_NAME_MAX} {...field('name')} />
          <TextAreaField
            label={t('beta.useCase')}
            name="use_case"
            rows={4}
            maxLength={USE_CASE_MAX}
            helperText={t('beta.useCase.hint')}
            {...field('useCase')}
          />
          <TextField label={t('beta.company')} name="company" autoComplete="organization" maxLength={COMPANY_MAX} {...field('company')} />
          <TextField label={t('beta.heardFrom')} name="heard_from" maxLength={HEARD_FROM_MAX} {...field('heardFrom')} />
          <Button type="submit" colorPalette="brand" size="lg" loading={isLoading}>
            {t('beta.form.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
