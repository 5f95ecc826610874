import { Box, Button, EmptyState, Skeleton, Stack } from '@chakra-ui/react';
import { LuCloudUpload, LuFolderX, LuUpload } from 'react-icons/lu';
import { FormattedMessage } from 'react-intl';
import { PagedList, type Pagination } from '../../components/DataTable';
import { LocaleLink } from '../../i18n/LocaleLink';
import { GridView, ListView, type EntryListShell, type EntryViewProps } from './EntryViews';
import type { FilesView } from './filesPreferences';

interface FolderContentsProps extends EntryViewProps {
  view: FilesView;
  atRoot: boolean;
  isLoading: boolean;
  isFetching: boolean;
  /** The folder could not be loaded (gone, or not ours). */
  notFound: boolean;
  onUpload: () => void;
  /** The folder's page, when its answer is here. */
  pagination?: Pagination;
}

/** The folder's entries as a list (a DataTable) or a grid (in the same PagedList shell), or what
 *  stands in for them: placeholders while loading, "not found", or an empty folder's invitation
 *  to upload; the pager under them when the folder has more than one page. */
export function FolderContents({ view, atRoot, isLoading, isFetching, notFound, onUpload, pagination, ...viewProps }: FolderContentsProps) {
  const shell: EntryListShell = {
    isLoading,
    loading: <LoadingRows />,
    isFetching,
    empty: <EmptyFolder atRoot={atRoot} onUpload={onUpload} />,
    pagination,
  };
  return (
    <Box minH="80">
      {notFound && !isLoading ? (
        <FolderNotFound />
      ) : view === 'list' ? (
        <ListView {...viewProps} {...shell} />
      ) : (
        <PagedList flush isEmpty={viewProps.items.length === 0} {...shell}>
          <GridView {...viewProps} />
        </PagedList>
      )}
    </Box>
  );
}

function LoadingRows() {
  return (
    <Stack p="4" gap="3">
      {[0, 1, 2, 3, 4].map((i) => (
        <Skeleton key={i} h="8" />
      ))}
    </Stack>
  );
}

function FolderNotFound() {
  return (
    <EmptyState.Root>
      <EmptyState.Content>
        <EmptyState.Indicator>
          <LuFolderX />
        </EmptyState.Indicator>
        <EmptyState.Title>
          <FormattedMessage id="files.notFound.title" />
        </EmptyState.Title>
        <Button asChild variant="outline" size="sm">
          <LocaleLink to="/files">
            <FormattedMessage id="files.notFound.back" />
          </LocaleLink>
        </Button>
      </EmptyState.Content>
    </EmptyState.Root>
  );
}

function EmptyFolder({ atRoot, onUpload }: { atRoot: boolean; onUpload: () => void }) {
  return (
    <EmptyState.Root py="16">
      <EmptyState.Content>
        <EmptyState.Indicator color="brand.fg" bg="brand.subtle" rounded="full" p="4">
          <LuCloudUpload />
        </EmptyState.Indicator>
        <Stack textAlign="center" gap="1">
          <EmptyState.Title>
            <FormattedMessage id={atRoot ? 'files.empty.rootTitle' : 'files.empty.title'} />
          </EmptyState.Title>
          <EmptyState.Description maxW="sm">
            <FormattedMessage id="files.empty.body" />
          </EmptyState.Description>
        </Stack>
        <Button colorPalette="brand" size="sm" onClick={onUpload}>
          <LuUpload aria-hidden />
          <FormattedMessage id="files.upload" />
        </Button>
      </EmptyState.Content>
    </EmptyState.Root>
  );
}
