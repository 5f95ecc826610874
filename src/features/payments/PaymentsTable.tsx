import { Heading, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { Pager } from '../workflows/Pager';
import { formatCredits, formatMoney } from '../usage/format';
import { PaymentStatusBadge } from './PaymentStatusBadge';
import { useListPaymentsQuery } from './paymentsApi';

const PAGE_SIZE = 10;

/** The user's payments, newest first, with their status (pending, succeeded, refunded…). */
export function PaymentsTable() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [page, setPage] = useState(1);
  const { data, isFetching } = useListPaymentsQuery({ page, pageSize: PAGE_SIZE });

  return (
    <Stack as="section" gap="4" aria-labelledby="payments-heading">
      <Heading as="h2" size="lg" id="payments-heading">
        {t('payments.history.title')}
      </Heading>
      {data && data.total === 0 ? (
        <Text color="fg.muted">{t('payments.history.empty')}</Text>
      ) : (
        <Table.ScrollArea borderWidth="1px" rounded="lg">
          <Table.Root size="sm" aria-label={t('payments.history.title')} opacity={isFetching ? 0.7 : 1}>
            <Table.Header>
              <Table.Row bg="bg.subtle">
                <Table.ColumnHeader>{t('payments.col.date')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('payments.col.pack')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('payments.col.credits')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('payments.col.amount')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('payments.col.status')}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {(data?.items ?? []).map((payment) => (
                <Table.Row key={payment.id}>
                  <Table.Cell whiteSpace="nowrap">{intl.formatDate(payment.created_at, { dateStyle: 'medium' })}</Table.Cell>
                  <Table.Cell>{payment.pack_name}</Table.Cell>
                  <Table.Cell textAlign="end">{formatCredits(intl, payment.credits)}</Table.Cell>
                  <Table.Cell textAlign="end" whiteSpace="nowrap">
                    {formatMoney(intl, payment.amount_cents, payment.currency)}
                    {payment.refunded_cents > 0 && (
                      <Text as="span" display="block" textStyle="xs" color="fg.muted">
                        {intl.formatMessage({ id: 'payments.refundedAmount' }, { amount: formatMoney(intl, payment.refunded_cents, payment.currency) })}
                      </Text>
                    )}
                  </Table.Cell>
                  <Table.Cell>
                    <PaymentStatusBadge status={payment.status} />
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
      {data && data.total > PAGE_SIZE && <Pager page={page} pageSize={PAGE_SIZE} total={data.total} onChange={setPage} />}
    </Stack>
  );
}
