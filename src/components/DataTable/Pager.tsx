import { Button, HStack, Text } from '@chakra-ui/react';
import { LuChevronLeft, LuChevronRight } from 'react-icons/lu';
import { FormattedMessage } from 'react-intl';

/** Where a paged list is: the API's `page` (from 1), `page_size` and `total`, and how to move. */
export interface Pagination {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
}

/** Previous / "Page 2 of 5" / Next under a paged list. */
export function Pager({ page, pageSize, total, onChange }: Pagination) {
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

/** Whether a list has more than one page (and so shows its pager). */
export function hasPages(pagination?: Pagination): pagination is Pagination {
  return !!pagination && pagination.total > pagination.pageSize;
}

/** The pager when there is more than one page, else nothing (every list shows it so). */
export function PagerIfNeeded({ pagination }: { pagination?: Pagination }) {
  if (!hasPages(pagination)) return null;
  return <Pager {...pagination} />;
}
