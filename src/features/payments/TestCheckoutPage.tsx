import { Alert, Button, Card, Center, DataList, Flex, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuFlaskConical } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { useNavigate, useParams } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useLocalePath } from '../../i18n/useLocale';
import { formatCredits, formatMoney } from '../usage/format';
import { PaymentStatusBadge } from './PaymentStatusBadge';
import { useCancelTestCheckoutMutation, useCompleteTestCheckoutMutation, useGetTestCheckoutQuery } from './paymentsApi';

/**
 * `/billing/test-checkout/:paymentId`: the checkout a server without Stripe keys offers. "Pay"
 * makes the server deliver a signed payment webhook to itself, as Stripe would; nothing is charged.
 */
export function TestCheckoutPage() {
  usePageTitle('payments.testCheckout.title');
  const { paymentId = '' } = useParams();
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const { data, isLoading, isError } = useGetTestCheckoutQuery(paymentId);
  const [complete] = useCompleteTestCheckoutMutation();
  const [cancel] = useCancelTestCheckoutMutation();
  const [answering, setAnswering] = useState<'pay' | 'cancel' | null>(null);

  const finish = async (choice: 'pay' | 'cancel') => {
    setAnswering(choice);
    const result = await (choice === 'pay' ? complete(paymentId) : cancel(paymentId));
    if ('data' in result && result.data) {
      // The checkout's success or cancel path, kept in the language being shown.
      navigate(localePath(result.data.redirect_path));
    } else {
      setAnswering(null);
    }
  };

  if (isLoading) {
    return (
      <Center py="16">
        <Spinner color="brand.solid" />
      </Center>
    );
  }
  if (isError || !data) {
    return (
      <Stack gap="4" align="flex-start">
        <Heading as="h1" size="xl">
          {t('payments.testCheckout.notFound')}
        </Heading>
        <Button asChild variant="outline">
          <LocaleLink to="/billing">{t('payments.backToBilling')}</LocaleLink>
        </Button>
      </Stack>
    );
  }

  const pending = data.status === 'pending';
  return (
    <Stack gap="6" maxW="lg" mx="auto">
      <Alert.Root status="warning" variant="surface" rounded="xl" data-testid="test-mode-banner">
        <Alert.Indicator>
          <LuFlaskConical />
        </Alert.Indicator>
        <Alert.Content>
          <Alert.Title>{t('payments.testCheckout.banner')}</Alert.Title>
          <Alert.Description>{t('payments.testCheckout.bannerText')}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <Card.Root rounded="2xl" shadow="sm" borderColor="border.muted">
        <Card.Header>
          <Flex align="center" gap="3" wrap="wrap">
            <Heading as="h1" size="xl">
              {t('payments.testCheckout.title')}
            </Heading>
            {!pending && <PaymentStatusBadge status={data.status} />}
          </Flex>
        </Card.Header>
        <Card.Body>
          <DataList.Root orientation="horizontal">
            <DataList.Item>
              <DataList.ItemLabel>{t('payments.col.pack')}</DataList.ItemLabel>
              <DataList.ItemValue>{data.pack_name}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>{t('payments.col.credits')}</DataList.ItemLabel>
              <DataList.ItemValue>{formatCredits(intl, data.credits)}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>{t('payments.testCheckout.price')}</DataList.ItemLabel>
              <DataList.ItemValue fontWeight="semibold">{formatMoney(intl, data.amount_cents, data.currency)}</DataList.ItemValue>
            </DataList.Item>
          </DataList.Root>
        </Card.Body>
        <Card.Footer justifyContent="flex-end" gap="3" borderTopWidth="1px" borderColor="border.muted" pt="5">
          {pending ? (
            <>
              <Button variant="outline" loading={answering === 'cancel'} disabled={answering !== null} onClick={() => void finish('cancel')}>
                {t('payments.testCheckout.cancel')}
              </Button>
              <Button colorPalette="brand" loading={answering === 'pay'} disabled={answering !== null} onClick={() => void finish('pay')}>
                {t('payments.testCheckout.pay', { amount: formatMoney(intl, data.amount_cents, data.currency) })}
              </Button>
            </>
          ) : (
            <>
              <Text color="fg.muted" textStyle="sm" me="auto">
                {t('payments.testCheckout.done')}
              </Text>
              <Button asChild variant="outline">
                <LocaleLink to="/billing">{t('payments.backToBilling')}</LocaleLink>
              </Button>
            </>
          )}
        </Card.Footer>
      </Card.Root>
    </Stack>
  );
}
