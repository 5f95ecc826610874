import { Box, Button, Dialog, EmptyState, Flex, HStack, IconButton, Input, InputGroup, NativeSelect, Portal, Stack, Text } from '@chakra-ui/react';
import { useMemo, useRef, useState, type RefObject } from 'react';
import { LuArrowDownWideNarrow, LuArrowUpNarrowWide, LuFolderX, LuSearch, LuUpload } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { useAppDispatch } from '../../app/hooks';
import { PickerList } from '../../components/PickerList/PickerList';
import { RelativeTime } from '../../components/RelativeTime';
import { useLocale } from '../../i18n/useLocale';
import { EntryIcon } from './EntryViews';
import { filesApi, useGetFolderQuery, type FileEntry, type FolderEntry, type FolderSortKey, type SortOrder } from './filesApi';
import { FilesBreadcrumbs } from './FilesBreadcrumbs';
import { formatBytes } from './format';
import { SORTS } from './filesPreferences';
import { FolderTree } from './FolderTree';
import { acceptsFile } from './importStep';
import { UploadRow } from './UploadPanel';
import { usePickerUploads } from './usePickerUploads';
import { useUploadPickers } from './useUploadPickers';

// The file manager's browsing in a dialog, for a step's `file` or `folder` param: the same folder
// API, tree, breadcrumbs, icons and upload queue, with one job: choose a file (one the step can
// read) or a folder. What was chosen is also put in the files cache (lookupFile / lookupFolder), so
// the field names it at once.

export type PickKind = 'file' | 'folder';

const PAGE_SIZE = 100;

export interface FilePickerDialogProps {
  open: boolean;
  kind: PickKind;
  title: string;
  /** file: the name endings the step reads (".csv"); absent, any file. */
  accept?: string[];
  /** Where browsing starts ('root' for the top level): where the current choice is. */
  startFolderId: string;
  /** The current choice, shown selected. */
  chosenId: string | null;
  onChoose: (id: string) => void;
  onClose: () => void;
}

export function FilePickerDialog({ open, onClose, ...props }: FilePickerDialogProps) {
  // Focus starts in the name filter: typing narrows the folder at once.
  const filterInput = useRef<HTMLInputElement>(null);
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => !d.open && onClose()}
      initialFocusEl={() => filterInput.current}
      placement="center"
      size="xl"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px={{ base: '0', md: '4' }}>
          {/* Mounted on each opening, so browsing starts afresh at the current choice. */}
          <PickerContent onClose={onClose} filterInput={filterInput} {...props} />
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function PickerContent({
  kind,
  title,
  accept,
  startFolderId,
  chosenId,
  onChoose,
  onClose,
  filterInput,
}: Omit<FilePickerDialogProps, 'open'> & { filterInput: RefObject<HTMLInputElement | null> }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const locale = useLocale();
  const dispatch = useAppDispatch();

  const [folderId, setFolderId] = useState(startFolderId);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<{ sort: FolderSortKey; order: SortOrder }>({ sort: 'name', order: 'asc' });
  const [filter, setFilter] = useState('');
  const [picked, setSelected] = useState<{ id: string; name: string } | null>(null);

  const { data, isLoading, isError, isFetching } = useGetFolderQuery({ id: folderId, page, page_size: PAGE_SIZE, ...sort });
  const atRoot = folderId === 'root';
  const openIds = useMemo(() => (data?.path ?? []).map((p) => p.id), [data?.path]);
  const items = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (data?.items ?? []).filter((item) => !needle || item.name.toLowerCase().includes(needle));
  }, [data?.items, filter]);
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  const kinds = accept?.join(', ');
  // Why a dimmed file cannot be chosen; a folder picker dims every file and needs no reason.
  const notChoosableText = kind === 'file' && kinds ? t('files.picker.notReadable', { kinds }) : null;
  const isChoosable = (file: FileEntry) => kind === 'file' && acceptsFile(accept, file.name);
  // Until the user picks another, the current choice is the selection (reopening the picker to
  // look around and choosing again should not have to find it anew).
  const current = data?.items.find((item): item is FileEntry => item.type === 'file' && item.id === chosenId);
  const selected = picked ?? (current ? { id: current.id, name: current.name } : null);

  const navigate = (id: string) => {
    setFolderId(id);
    setPage(1);
    setFilter('');
  };

  const ownUploads = usePickerUploads((made) => {
    // One file uploaded for a file param: that is the one the user means.
    if (kind === 'file' && made.length === 1 && acceptsFile(accept, made[0].name)) setSelected(made[0]);
  });
  const pickers = useUploadPickers((pending) =>
    ownUploads.start(
      pending.flatMap((p) => (p.file ? [p.file] : [])),
      atRoot ? null : folderId,
    ),
  );

  const choose = (file?: { id: string; name: string }) => {
    if (kind === 'folder') {
      if (!data?.folder) return;
      dispatch(filesApi.util.upsertQueryData('lookupFolder', data.folder.id, { folder: data.folder, path: data.path }));
      onChoose(data.folder.id);
      return;
    }
    const target = file ?? selected;
    if (!target) return;
    // Known from the listing: the field shows its name and place without asking the server again.
    const entry = data?.items.find((item): item is FileEntry => item.type === 'file' && item.id === target.id);
    if (entry) {
      const { type: _type, ...fileOut } = entry;
      dispatch(filesApi.util.upsertQueryData('lookupFile', entry.id, { ...fileOut, path: data?.path ?? [] }));
    }
    onChoose(target.id);
  };

  const canChoose = kind === 'folder' ? Boolean(data?.folder) : Boolean(selected);
  const status =
    kind === 'folder'
      ? data?.folder
        ? t('files.picker.selected', { name: data.folder.name })
        : t('files.picker.openFolderFirst')
      : selected
        ? t('files.picker.selected', { name: selected.name })
        : t('files.picker.nothingSelected');

  return (
    <Dialog.Content>
      <Dialog.Header flexDirection="column" alignItems="flex-start" gap="1">
        <Dialog.Title>{title}</Dialog.Title>
        <Dialog.Description textStyle="sm" color="fg.muted">
          {kind === 'folder' ? t('files.picker.hintFolder') : kinds ? t('files.picker.hintKinds', { kinds }) : t('files.picker.hintFile')}
        </Dialog.Description>
      </Dialog.Header>
      <Dialog.Body>
        <Flex gap="4" align="stretch" minH="96">
          <Box w="52" flexShrink="0" display={{ base: 'none', md: 'block' }} borderEndWidth="1px" borderColor="border.muted" pe="2" maxH="lg" overflowY="auto">
            <FolderTree label={t('files.tree.title')} currentId={folderId} openIds={openIds} onPick={(id) => navigate(id)} />
          </Box>
          <Stack flex="1" minW="0" gap="3">
            <Flex gap="2" align="center" wrap="wrap">
              <Box flex="1" minW="0">
                <FilesBreadcrumbs atRoot={atRoot} path={data?.path ?? []} onNavigate={navigate} />
              </Box>
              <Button size="xs" variant="outline" onClick={pickers.pickFiles}>
                <LuUpload aria-hidden />
                {t('files.upload')}
              </Button>
              {pickers.inputs}
            </Flex>
            <HStack gap="2">
              <InputGroup flex="1" startElement={<LuSearch aria-hidden />}>
                <Input
                  ref={filterInput}
                  size="sm"
                  value={filter}
                  onChange={(e) => setFilter(e.target.value)}
                  placeholder={t('files.picker.filterPlaceholder')}
                  aria-label={t('files.picker.filter')}
                  maxLength={255}
                />
              </InputGroup>
              <NativeSelect.Root size="sm" width="auto">
                <NativeSelect.Field
                  aria-label={t('files.sort')}
                  value={sort.sort}
                  onChange={(e) => {
                    const next = e.target.value as FolderSortKey;
                    setSort({ sort: next, order: next === 'name' ? 'asc' : 'desc' });
                    setPage(1);
                  }}
                >
                  {SORTS.map((s) => (
                    <option key={s} value={s}>
                      {t(`files.sort.${s}`)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              <IconButton
                size="sm"
                variant="ghost"
                aria-label={t(sort.order === 'asc' ? 'files.order.asc' : 'files.order.desc')}
                title={t(sort.order === 'asc' ? 'files.order.asc' : 'files.order.desc')}
                onClick={() => setSort((s) => ({ ...s, order: s.order === 'asc' ? 'desc' : 'asc' }))}
              >
                {sort.order === 'asc' ? <LuArrowUpNarrowWide /> : <LuArrowDownWideNarrow />}
              </IconButton>
            </HStack>

            <PickerList<FolderEntry>
              label={t('files.listLabel')}
              items={items}
              itemKey={(item) => `${item.type}:${item.id}`}
              row={(item) => ({
                name: item.name,
                icon: <EntryIcon item={item} />,
                detail:
                  item.type === 'folder'
                    ? t('files.folder')
                    : [formatBytes(item.size, locale), isChoosable(item) ? null : notChoosableText].filter(Boolean).join(' · '),
                aside: <RelativeTime value={item.updated_at} />,
              })}
              isSelectable={(item) => item.type === 'file'}
              isDisabled={(item) => item.type === 'file' && !isChoosable(item)}
              isSelected={(item) => item.id === (selected?.id ?? chosenId)}
              onActivate={(item) => (item.type === 'folder' ? navigate(item.id) : setSelected({ id: item.id, name: item.name }))}
              onChoose={(item) => item.type === 'file' && choose(item)}
              isLoading={isLoading}
              isFetching={isFetching}
              error={
                isError &&
                !data && (
                  <EmptyState.Root size="sm">
                    <EmptyState.Content>
                      <EmptyState.Indicator>
                        <LuFolderX />
                      </EmptyState.Indicator>
                      <EmptyState.Title>{t('files.notFound.title')}</EmptyState.Title>
                      <Button size="xs" variant="outline" onClick={() => navigate('root')}>
                        {t('files.notFound.back')}
                      </Button>
                    </EmptyState.Content>
                  </EmptyState.Root>
                )
              }
              emptyText={filter.trim() ? t('files.picker.noMatch', { filter: filter.trim() }) : t('files.picker.empty')}
              page={page}
              pages={pages}
              onPageChange={setPage}
            />

            {ownUploads.items.length > 0 && (
              <Box
                as="ul"
                listStyleType="none"
                aria-label={t('files.upload.panel')}
                borderWidth="1px"
                borderColor="border.muted"
                rounded="lg"
                px="3"
                maxH="32"
                overflowY="auto"
              >
                {ownUploads.items.map((item) => (
                  <UploadRow key={item.id} item={item} onCancel={() => ownUploads.cancel(item.id)} />
                ))}
              </Box>
            )}
          </Stack>
        </Flex>
      </Dialog.Body>
      <Dialog.Footer gap="2" borderTopWidth="1px" borderColor="border.muted" pt="4">
        <Text flex="1" textStyle="sm" color={canChoose ? 'fg' : 'fg.muted'} truncate aria-live="polite">
          {status}
        </Text>
        <Button variant="outline" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button colorPalette="brand" disabled={!canChoose} onClick={() => choose()}>
          {t(kind === 'folder' ? 'files.picker.chooseFolder' : 'files.picker.chooseFile')}
        </Button>
      </Dialog.Footer>
    </Dialog.Content>
  );
}
