import { Badge } from '@chakra-ui/react';
import { FormattedMessage } from 'react-intl';
import type { ContactStatus } from './contactTypes';

const PALETTE: Record<ContactStatus, string> = { open: 'blue', answered: 'green', closed: 'gray' };

/** A query's status in words and colour: open (waiting for support), answered, closed. */
export function ContactStatusBadge({ status }: { status: ContactStatus }) {
  return (
    <Badge colorPalette={PALETTE[status]} variant="subtle" rounded="full" px="2">
      <FormattedMessage id={`contact.status.${status}`} />
    </Badge>
  );
}
