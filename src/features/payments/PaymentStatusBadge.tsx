import { Badge } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import type { PaymentStatus } from './paymentsApi';

// Keyed by the server's own status enum: a status added there fails the typecheck here until it
// has a colour and a label (payments.status.<status> in both catalogs).
const statusPalette: Record<PaymentStatus, string> = {
  pending: 'yellow',
  succeeded: 'green',
  cancelled: 'gray',
  expired: 'gray',
  refunded: 'purple',
  partially_refunded: 'purple',
};

/** A payment's status in the page's language. */
export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  const intl = useIntl();
  return <Badge colorPalette={statusPalette[status]}>{intl.formatMessage({ id: `payments.status.${status}` })}</Badge>;
}
