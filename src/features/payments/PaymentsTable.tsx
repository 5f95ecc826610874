import { Heading, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { DataTable, EmptyListState } from '../../components/DataTable';
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
      <DataTable
        appearance="subtle"
        label={t('payments.history.title')}
        rows={data?.items}
        rowKey={(payment) => payment.id}
        isFetching={isFetching}
        empty={<EmptyListState title={t('payments.history.empty')} />}
        pagination={data && { page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage }}
        columns={[
          {
            id: 'date',
            header: t('payments.col.date'),
            cell: (payment) => intl.formatDate(payment.created_at, { dateStyle: 'medium' }),
            cellProps: { whiteSpace: 'nowrap' },
          },
          { id: 'pack', header: t('payments.col.pack'), cell: (payment) => payment.pack_name },
          { id: 'credits', header: t('payments.col.credits'), align: 'end', cell: (payment) => formatCredits(intl, payment.credits) },
          {
            id: 'amount',
            header: t('payments.col.amount'),
            align: 'end',
            cellProps: { whiteSpace: 'nowrap' },
            cell: (payment) => (
              <>
                {formatMoney(intl, payment.amount_cents, payment.currency)}
                {payment.refunded_cents > 0 && (
                  <Text as="span" display="block" textStyle="xs" color="fg.muted">
                    {intl.formatMessage({ id: 'payments.refundedAmount' }, { amount: formatMoney(intl, payment.refunded_cents, payment.currency) })}
                  </Text>
                )}
              </>
            ),
          },
          { id: 'status', header: t('payments.col.status'), cell: (payment) => <PaymentStatusBadge status={payment.status} /> },
        ]}
      />
    </Stack>
  );
}
