import { Button, HStack, Text } from '@chakra-ui/react';
import { LuChevronLeft, LuChevronRight } from 'react-icons/lu';
import { FormattedMessage } from 'react-intl';

/** Previous / "Page 2 of 5" / Next under a paged list. */
export function Pager({ page, pageSize, total, onChange }: { page: number; pageSize: number; total: number; onChange: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <HStack justify="center" gap="3" as="nav">
      <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        <LuChevronLeft aria-hidden />
        <FormattedMessage id="common.previous" />
      </Button>
      <Text textStyle="sm" color="fg.muted">
        <FormattedMessage id="common.pageOf" values={{ page, pages }} />
      </Text>
      <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => onChange(page + 1)}>
        <FormattedMessage id="common.next" />
        <LuChevronRight aria-hidden />
      </Button>
    </HStack>
  );
}
