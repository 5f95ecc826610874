import { Badge } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { PAYMENT_STATUSES, type PaymentStatus } from './paymentsApi';

const statusPalette: Record<PaymentStatus, string> = {
  pending: 'yellow',
  completed: 'green',
  cancelled: 'gray',
  expired: 'gray',
  failed: 'red',
  refunded: 'purple',
  partially_refunded: 'purple',
};

const isKnownStatus = (status: string): status is PaymentStatus => (PAYMENT_STATUSES as readonly string[]).includes(status);

/** A payment's status in the page's language (a status this app does not know yet, as it is). */
export function PaymentStatusBadge({ status }: { status: string }) {
  const intl = useIntl();
  if (!isKnownStatus(status)) return <Badge>{status}</Badge>;
  return <Badge colorPalette={statusPalette[status]}>{intl.formatMessage({ id: `payments.status.${status}` })}</Badge>;
}
