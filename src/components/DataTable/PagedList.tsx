import { Box, Skeleton, Stack, type StackProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { hasPages, Pager, type Pagination } from './Pager';

export interface PagedListProps {
  /** The first page is on its way: `loading` is shown instead of anything else. */
  isLoading?: boolean;
  /** What stands in for the list while it loads (by default a block of skeleton). */
  loading?: ReactNode;
  /** The list is known to be empty: `empty` is shown instead of the list. */
  isEmpty: boolean;
  empty: ReactNode;
  /** Another page or filter is on its way: the current one is dimmed, not replaced. */
  isFetching?: boolean;
  pagination?: Pagination;
  /** Room between the list and the pager. */
  gap?: StackProps['gap'];
  /** The list fills a card of its own (the file manager's): no room around it, and the pager in
   *  a bar along the card's bottom, under a rule. */
  flush?: boolean;
  children: ReactNode;
}

/**
 * The shell every paged list shares, whatever draws its items (a table, cards, a grid): loading,
 * empty, the items dimmed while the next page loads, and the pager under them. A page found empty
 * while the list has more pages (gone past the end: what was on it went away) keeps its pager, so
 * there is a way back.
 */
export function PagedList({ isLoading, loading, isEmpty, empty, isFetching, pagination, gap = '4', flush = false, children }: PagedListProps) {
  if (isLoading) return <>{loading ?? <Skeleton h="32" rounded="xl" />}</>;
  const pager =
    hasPages(pagination) &&
    (flush ? (
      <Box px="4" py="3" borderTopWidth="1px" borderColor="border.muted">
        <Pager {...pagination} />
      </Box>
    ) : (
      <Pager {...pagination} />
    ));
  if (isEmpty && !pager) return <>{empty}</>;
  return (
    <Stack gap={flush ? '0' : gap}>
      {isEmpty ? (
        empty
      ) : (
        <Stack opacity={isFetching ? 0.7 : 1} transition="opacity 0.2s">
          {children}
        </Stack>
      )}
      {pager}
    </Stack>
  );
}
