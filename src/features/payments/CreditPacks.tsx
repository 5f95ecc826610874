import { Badge, Button, Card, Flex, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuCreditCard } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { useLocale, useLocalePath } from '../../i18n/useLocale';
import { withLocalePrefix } from '../../i18n/locales';
import { formatCredits, formatMoney } from '../usage/format';
import { browserNavigation, isExternalUrl } from './checkoutUrl';
import { useCreateCheckoutSessionMutation, useListCreditPacksQuery } from './paymentsApi';

/** Top-up: one card per credit pack; "Buy" opens the checkout (Stripe's, or the test checkout). */
export function CreditPacks() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const locale = useLocale();
  const localePath = useLocalePath();
  const navigate = useNavigate();
  const { data, isLoading } = useListCreditPacksQuery();
  const [createSession] = useCreateCheckoutSessionMutation();
  const [buying, setBuying] = useState<string | null>(null);

  const buy = async (packId: string) => {
    setBuying(packId);
    // The checkout comes back to this page, in this language, with how it ended.
    const billing = withLocalePrefix('/billing', locale);
    const result = await createSession({ pack_id: packId, success_path: `${billing}?payment=success`, cancel_path: `${billing}?payment=cancelled` });
    if (!('data' in result) || !result.data) {
      setBuying(null);
      return;
    }
    const url = result.data.checkout_url;
    if (isExternalUrl(url)) browserNavigation.leaveFor(url);
    else navigate(localePath(url));
  };

  return (
    <Stack as="section" gap="4" aria-labelledby="top-up-heading">
      <Flex align="center" gap="3" wrap="wrap">
        <Heading as="h2" size="lg" id="top-up-heading">
          {t('payments.topUp.title')}
        </Heading>
        {data?.mode === 'test' && (
          <Badge colorPalette="orange" variant="surface">
            {t('payments.testMode')}
          </Badge>
        )}
      </Flex>
      <Text color="fg.muted" textStyle="sm">
        {t('payments.topUp.subtitle')}
      </Text>
      {isLoading ? (
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height="40" rounded="xl" />
          ))}
        </SimpleGrid>
      ) : (
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
          {(data?.items ?? []).map((pack) => (
            <Card.Root key={pack.id} rounded="xl" borderColor="border.muted" data-testid={`pack-${pack.id}`}>
              <Card.Body gap="2">
                <Text fontWeight="semibold">{pack.name}</Text>
                <Text textStyle="2xl" fontWeight="bold">
                  {t('billing.creditsAmount', { count: pack.credits, credits: formatCredits(intl, pack.credits) })}
                </Text>
                <Text color="fg.muted">{formatMoney(intl, pack.amount_cents, pack.currency)}</Text>
              </Card.Body>
              <Card.Footer>
                <Button
                  colorPalette="brand"
                  width="full"
                  loading={buying === pack.id}
                  disabled={buying !== null}
                  aria-label={t('payments.buyPack', { name: pack.name })}
                  onClick={() => void buy(pack.id)}
                >
                  <LuCreditCard aria-hidden />
                  {t('payments.buy')}
                </Button>
              </Card.Footer>
            </Card.Root>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
