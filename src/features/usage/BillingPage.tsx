import { Alert, Badge, Card, CloseButton, Flex, Heading, Separator, Skeleton, Stack, Text } from '@chakra-ui/react';
import { LuCoins } from 'react-icons/lu';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { CreditPacks } from '../payments/CreditPacks';
import { PaymentsTable } from '../payments/PaymentsTable';
import { formatCredits } from './format';
import { useGetBalanceQuery } from './usageApi';
import { UsageSection } from './UsageSection';
import { UsageTable } from './UsageTable';

/** After a paid checkout Stripe's webhook may land a moment after the user is back: look again,
 *  for a while (a webhook later than that is Stripe retrying; the page's next visit shows it). */
const BALANCE_POLL_AFTER_PAYMENT_MS = 5000;
const BALANCE_POLL_FOR_MS = 60_000;

type PaymentOutcome = 'success' | 'cancelled';

/** The banner a checkout comes back with (?payment=success|cancelled); closing it drops the query. */
function PaymentBanner({ outcome, onClose }: { outcome: PaymentOutcome; onClose: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  return (
    <Alert.Root status={outcome === 'success' ? 'success' : 'info'} rounded="xl" data-testid="payment-banner">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t(`payments.banner.${outcome}.title`)}</Alert.Title>
        <Alert.Description>{t(`payments.banner.${outcome}.text`)}</Alert.Description>
      </Alert.Content>
      <CloseButton size="sm" alignSelf="flex-start" aria-label={t('notices.close')} onClick={onClose} />
    </Alert.Root>
  );
}

/** `/billing`: the balance, top-up, what was spent (chart and rows) and the payments. */
export function BillingPage() {
  usePageTitle('billing.title');
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [searchParams, setSearchParams] = useSearchParams();
  const rawOutcome = searchParams.get('payment');
  const outcome: PaymentOutcome | null = rawOutcome === 'success' || rawOutcome === 'cancelled' ? rawOutcome : null;
  const [polling, setPolling] = useState(outcome === 'success');
  useEffect(() => {
    if (outcome !== 'success') return;
    setPolling(true);
    const stop = setTimeout(() => setPolling(false), BALANCE_POLL_FOR_MS);
    return () => clearTimeout(stop);
  }, [outcome]);
  const { data: balance, isLoading } = useGetBalanceQuery(undefined, {
    refetchOnMountOrArgChange: true,
    pollingInterval: polling && outcome === 'success' ? BALANCE_POLL_AFTER_PAYMENT_MS : 0,
  });
  const billingOn = balance?.billing_enabled ?? true;

  const closeBanner = () => {
    const next = new URLSearchParams(searchParams);
    next.delete('payment');
    setSearchParams(next, { replace: true });
  };

  return (
    <Stack gap="8">
      <Stack gap="1">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          {t('billing.title')}
        </Heading>
        <Text color="fg.muted" fontSize="lg">
          {t('billing.subtitle')}
        </Text>
      </Stack>

      {outcome && <PaymentBanner outcome={outcome} onClose={closeBanner} />}

      <Card.Root rounded="2xl" shadow="sm" borderColor="border.muted" maxW="xl">
        <Card.Body gap="2">
          <Flex align="center" gap="2" color="fg.muted">
            <LuCoins aria-hidden />
            <Text fontWeight="medium">{t('billing.balance')}</Text>
            {balance && !billingOn && <Badge>{t('billing.disabled.badge')}</Badge>}
          </Flex>
          {isLoading ? (
            <Skeleton height="10" width="40" />
          ) : balance ? (
            <Text textStyle="4xl" fontWeight="bold" data-testid="balance">
              {t('billing.creditsAmount', { count: balance.balance, credits: formatCredits(intl, balance.balance) })}
            </Text>
          ) : null}
          {balance && !billingOn && (
            <Text color="fg.muted" textStyle="sm">
              {t('billing.disabled.text')}
            </Text>
          )}
        </Card.Body>
      </Card.Root>

      {balance && billingOn && balance.paused_runs > 0 && (
        <Alert.Root status="warning" rounded="xl" data-testid="paused-runs">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('billing.paused.title', { count: balance.paused_runs })}</Alert.Title>
            <Alert.Description>{t('billing.paused.text')}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}

      {billingOn && <CreditPacks />}
      <Separator />
      <UsageSection />
      <UsageTable />
      {billingOn && (
        <>
          <Separator />
          <PaymentsTable />
        </>
      )}
    </Stack>
  );
}
