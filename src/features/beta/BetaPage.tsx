import { Alert, Button, Card, Center, Flex, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LuFlaskConical } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/usePageTitle';
import { TextAreaField } from '../../components/TextAreaField';
import { TextField } from '../../components/TextField';
import { useFieldErrors } from '../auth/useFieldErrors';
import { requiredProblem } from '../auth/validation';
import { useGetMyBetaStatusQuery, useRequestBetaMutation } from './betaApi';
import { RedeemCodeForm } from './RedeemCodeForm';
import { COMPANY_MAX, HEARD_FROM_MAX, USE_CASE_MAX, type BetaStatus } from './betaTypes';

const STATUS_LOOK: Record<BetaStatus['status'], 'success' | 'info' | 'neutral'> = { member: 'success', invited: 'success', requested: 'info', none: 'neutral' };

function StatusCard({ status }: { status: BetaStatus }) {
  const intl = useIntl();
  return (
    <Alert.Root status={STATUS_LOOK[status.status]} variant="subtle" rounded="xl" aria-label={intl.formatMessage({ id: 'beta.status.label' })}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          <FormattedMessage id={`beta.status.${status.status}`} />
        </Alert.Title>
        <Alert.Description>
          <FormattedMessage
            id={`beta.status.${status.status}.body`}
            values={{ date: status.requested_at ? intl.formatDate(status.requested_at, { dateStyle: 'medium' }) : '' }}
          />
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

function RequestForm({ again }: { again: boolean }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [request, { isLoading }] = useRequestBetaMutation();
  const [useCase, setUseCase] = useState('');
  const [company, setCompany] = useState('');
  const [heardFrom, setHeardFrom] = useState('');
  const { check, clear, errorFor, showServerErrors } = useFieldErrors<'useCase' | 'company' | 'heardFrom'>();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check({ useCase: requiredProblem(useCase, 'beta.useCase.required') })) return;
    const result = await request({
      use_case: useCase.trim(),
      ...(company.trim() ? { company: company.trim() } : {}),
      ...(heardFrom.trim() ? { heard_from: heardFrom.trim() } : {}),
    });
    // The server's answer ("Thanks, we will be in touch") is shown by the notices middleware.
    if (!('data' in result)) showServerErrors(result.error, { use_case: 'useCase', company: 'company', heard_from: 'heardFrom' });
  };

  return (
    <Card.Root rounded="2xl" shadow="sm" borderColor="border.muted" asChild>
      <form onSubmit={onSubmit} noValidate aria-labelledby="beta-form-title">
        <Card.Body gap="5">
          <Stack gap="1">
            <Heading as="h2" size="md" id="beta-form-title">
              {t(again ? 'beta.form.updateTitle' : 'beta.form.title')}
            </Heading>
            <Text color="fg.muted" textStyle="sm">
              {t('beta.form.subtitle')}
            </Text>
          </Stack>
          <TextAreaField
            label={t('beta.useCase')}
            name="use_case"
            rows={5}
            maxLength={USE_CASE_MAX}
            helperText={t('beta.useCase.hint')}
            value={useCase}
            error={errorFor('useCase')}
            onChange={(e) => {
              setUseCase(e.target.value);
              clear('useCase');
            }}
          />
          <Flex gap="5" direction={{ base: 'column', md: 'row' }}>
            <TextField
              label={t('beta.company')}
              name="company"
              size="md"
              autoComplete="organization"
              maxLength={COMPANY_MAX}
              value={company}
              error={errorFor('company')}
              onChange={(e) => {
                setCompany(e.target.value);
                clear('company');
              }}
            />
            <TextField
              label={t('beta.heardFrom')}
              name="heard_from"
              size="md"
              maxLength={HEARD_FROM_MAX}
              value={heardFrom}
              error={errorFor('heardFrom')}
              onChange={(e) => {
                setHeardFrom(e.target.value);
                clear('heardFrom');
              }}
            />
          </Flex>
        </Card.Body>
        <Card.Footer justifyContent="flex-end">
          <Button type="submit" colorPalette="brand" loading={isLoading}>
            <LuFlaskConical aria-hidden />
            {t(again ? 'beta.form.update' : 'beta.form.submit')}
          </Button>
        </Card.Footer>
      </form>
    </Card.Root>
  );
}

/** `/beta`: where the user stands in the beta programme, and a request to join (or to update it). */
export function BetaPage() {
  usePageTitle('nav.beta');
  const { data: status, isLoading } = useGetMyBetaStatusQuery();
  return (
    <Stack gap="8" maxW="3xl">
      <Stack gap="1">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          <FormattedMessage id="nav.beta" />
        </Heading>
        <Text color="fg.muted" fontSize="lg">
          <FormattedMessage id="beta.subtitle" />
        </Text>
      </Stack>
      {isLoading ? (
        <Center py="10">
          <Spinner color="brand.solid" />
        </Center>
      ) : (
        <>
          {status && <StatusCard status={status} />}
          {/* Members have nothing to ask for; everyone else may join with a code, ask, or change what they asked. */}
          {status?.status !== 'member' && (
            <>
              <RedeemCodeForm />
              <RequestForm again={status?.status === 'requested'} />
            </>
          )}
        </>
      )}
    </Stack>
  );
}
