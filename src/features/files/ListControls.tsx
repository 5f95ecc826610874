import { Button, ButtonGroup, Flex, HStack, IconButton, NativeSelect, Text } from '@chakra-ui/react';
import { LuArrowDownWideNarrow, LuArrowUpNarrowWide, LuDownload, LuFolderInput, LuLayoutGrid, LuList, LuTrash2, LuX } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import type { FileEntry, FolderEntry, FolderSortKey } from './filesApi';
import { SORTS, type FilesView, type SortSpec } from './filesPreferences';

interface SelectionActionsProps {
  selectedItems: FolderEntry[];
  zipping: boolean;
  onClear: () => void;
  onDownloadZip: (entries: FolderEntry[]) => void;
  onMove: (files: FileEntry[]) => void;
  onDelete: (entries: FolderEntry[]) => void;
}

interface ViewControlsProps {
  counts: { folders: number; files: number } | null;
  sortSpec: SortSpec;
  onSort: (sort: FolderSortKey) => void;
  onFlipOrder: () => void;
  view: FilesView;
  onView: (view: FilesView) => void;
}

/** The row above a folder's entries: what to do with the selection, or (nothing selected) how
 *  the folder is sorted and shown. */
export function ListControls(props: SelectionActionsProps & ViewControlsProps) {
  const selecting = props.selectedItems.length > 0;
  return (
    <Flex
      px={{ base: '3', md: '4' }}
      py="2"
      gap="2"
      align="center"
      wrap="wrap"
      minH="12"
      bg={selecting ? 'brand.subtle' : undefined}
      borderBottomWidth="1px"
      borderColor="border.muted"
    >
      {selecting ? <SelectionActions {...props} /> : <ViewControls {...props} />}
    </Flex>
  );
}

function SelectionActions({ selectedItems, zipping, onClear, onDownloadZip, onMove, onDelete }: SelectionActionsProps) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const selectedFiles = selectedItems.filter((item): item is FileEntry => item.type === 'file');
  const onlyFiles = selectedFiles.length === selectedItems.length;
  return (
    <>
      <IconButton size="xs" variant="ghost" aria-label={t('files.clearSelection')} onClick={onClear}>
        <LuX />
      </IconButton>
      <Text textStyle="sm" fontWeight="medium" flex="1" aria-live="polite">
        <FormattedMessage id="files.selected" values={{ count: selectedItems.length }} />
      </Text>
      <HStack gap="1" wrap="wrap">
        <Button size="xs" variant="ghost" loading={zipping} onClick={() => onDownloadZip(selectedItems)}>
          <LuDownload aria-hidden />
          <FormattedMessage id="files.downloadZip" />
        </Button>
        <Button size="xs" variant="ghost" disabled={!onlyFiles} title={onlyFiles ? undefined : t('files.move.onlyFiles')} onClick={() => onMove(selectedFiles)}>
          <LuFolderInput aria-hidden />
          <FormattedMessage id="files.action.move" />
        </Button>
        <Button size="xs" variant="ghost" colorPalette="red" onClick={() => onDelete(selectedItems)}>
          <LuTrash2 aria-hidden />
          <FormattedMessage id="files.action.delete" />
        </Button>
      </HStack>
    </>
  );
}

function ViewControls({ counts, sortSpec, onSort, onFlipOrder, view, onView }: ViewControlsProps) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const orderLabel = t(sortSpec.order === 'asc' ? 'files.order.asc' : 'files.order.desc');
  return (
    <>
      <Text textStyle="sm" color="fg.muted" flex="1">
        {counts && <FormattedMessage id="files.counts" values={counts} />}
      </Text>
      <NativeSelect.Root size="xs" width="auto">
        <NativeSelect.Field aria-label={t('files.sort')} value={sortSpec.sort} onChange={(e) => onSort(e.target.value as FolderSortKey)}>
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {t(`files.sort.${s}`)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <IconButton size="xs" variant="ghost" aria-label={orderLabel} title={orderLabel} onClick={onFlipOrder}>
        {sortSpec.order === 'asc' ? <LuArrowUpNarrowWide /> : <LuArrowDownWideNarrow />}
      </IconButton>
      <ButtonGroup size="xs" variant="outline" attached role="group" aria-label={t('files.view')}>
        <IconButton
          aria-label={t('files.view.list')}
          aria-pressed={view === 'list'}
          variant={view === 'list' ? 'subtle' : 'outline'}
          onClick={() => onView('list')}
        >
          <LuList />
        </IconButton>
        <IconButton
          aria-label={t('files.view.grid')}
          aria-pressed={view === 'grid'}
          variant={view === 'grid' ? 'subtle' : 'outline'}
          onClick={() => onView('grid')}
        >
          <LuLayoutGrid />
        </IconButton>
      </ButtonGroup>
    </>
  );
}
