import { Box, Button, Card, Center, Flex, Heading, HStack, Icon, Stack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useState } from 'react';
import { LuCloudUpload, LuFolderPlus, LuFolderUp, LuUpload } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useParams } from 'react-router-dom';
import { useAppDispatch } from '../../app/hooks';
import { usePageTitle } from '../../app/usePageTitle';
import { useLocalePath } from '../../i18n/useLocale';
import { filesFromDataTransfer } from './collectFiles';
import { DeleteDialog } from './DeleteDialog';
import { entryKey } from './EntryViews';
import { useCreateFolderMutation, useGetFolderQuery, type FileEntry, type FolderEntry } from './filesApi';
import { FilesBreadcrumbs } from './FilesBreadcrumbs';
import { useFilesSort, useFilesView } from './filesPreferences';
import { FolderContents } from './FolderContents';
import { FolderTree } from './FolderTree';
import type { ItemAction } from './ItemMenu';
import { ListControls } from './ListControls';
import { MoveDialog } from './MoveDialog';
import { NewFolderDialog } from './NewFolderDialog';
import { PreviewDrawer } from './PreviewDrawer';
import { StorageMeter } from './StorageMeter';
import { useFileDrop } from './useFileDrop';
import { useFileOperations } from './useFileOperations';
import { useSelection } from './useSelection';
import { useUploadPickers } from './useUploadPickers';
import { bindUploadDispatch, uploads, type PendingFile } from './uploads';
import { UploadPanel } from './UploadPanel';

export const FILES_PAGE_SIZE = 50;

/**
 * `/files` and `/files/:folderId`: the file manager. This component holds the page's state (which
 * folder and page, what is selected, renamed, or asked about in a dialog) and lays the parts out;
 * the parts live beside it: preferences, selection, operations, drag-and-drop, pickers, controls.
 */
export function FilesPage() {
  usePageTitle('nav.files');
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const folderId = useParams().folderId ?? 'root';
  const atRoot = folderId === 'root';
  const currentFolderId = atRoot ? null : folderId;

  const [view, setView] = useFilesView();
  const { sortSpec, sortBy, flipOrder } = useFilesSort();
  const [page, setPage] = useState(1);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<FolderEntry[]>([]);
  const [toMove, setToMove] = useState<FileEntry[]>([]);
  const [preview, setPreview] = useState<FileEntry | null>(null);
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    bindUploadDispatch(dispatch);
  }, [dispatch]);
  // A new folder starts on its first page with nothing being renamed (nor selected: useSelection).
  useEffect(() => {
    setPage(1);
    setRenaming(null);
  }, [folderId]);

  const { data, isLoading, isError, isFetching } = useGetFolderQuery({
    id: folderId,
    page,
    page_size: FILES_PAGE_SIZE,
    sort: sortSpec.sort,
    order: sortSpec.order,
  });
  const items = useMemo(() => data?.items ?? [], [data]);
  const [createFolder, { isLoading: creatingFolder }] = useCreateFolderMutation();
  const { selected, selectedItems, onSelect, onSelectAll, clear } = useSelection(items, folderId);
  const operations = useFileOperations();
  const openIds = useMemo(() => (data?.path ?? []).map((p) => p.id), [data?.path]);

  const startUploads = (pending: PendingFile[]) => {
    if (pending.length === 0) return;
    if (pending.every((p) => p.dirs.length === 0)) uploads.enqueue(pending.map((p) => p.file!).filter(Boolean), currentFolderId);
    else void uploads.enqueueTree(pending, currentFolderId);
  };
  const pickers = useUploadPickers(startUploads);
  const drop = useFileDrop((data) => void filesFromDataTransfer(data).then(startUploads));

  const zipName = () => `${data?.folder?.name ?? t('files.zipName')}.zip`;
  const openInWorkflow = (file: FileEntry) =>
    navigate(`${localePath('/workflows')}?${new URLSearchParams({ file_id: file.id, file_name: file.name }).toString()}`);

  const onAction = (action: ItemAction, item: FolderEntry) => {
    if (action === 'open' && item.type === 'folder') navigate(localePath(`/files/${item.id}`));
    else if (action === 'preview' && item.type === 'file') setPreview(item);
    else if (action === 'download') void (item.type === 'file' ? operations.downloadOne(item) : operations.downloadZip([item], `${item.name}.zip`));
    else if (action === 'rename') setRenaming(entryKey(item));
    else if (action === 'move' && item.type === 'file') setToMove([item]);
    else if (action === 'workflow' && item.type === 'file') openInWorkflow(item);
    else if (action === 'delete') setToDelete([item]);
  };

  const onRename = async (item: FolderEntry, name: string) => {
    setRenaming(null);
    await operations.rename(item, name);
  };

  const confirmDelete = async () => {
    if (!(await operations.remove(toDelete))) return;
    setToDelete([]);
    clear();
    if (data && toDelete.length >= items.length && page > 1) setPage(page - 1);
  };

  const confirmMove = async (target: string | null) => {
    if (!(await operations.move(toMove, target))) return;
    setToMove([]);
    clear();
  };

  const onCreateFolder = async (name: string) => {
    const result = await createFolder({ name, parent_id: currentFolderId });
    if ('data' in result) setCreating(false);
  };

  return (
    <Stack gap="6">
      <Flex gap="4" align={{ base: 'stretch', md: 'flex-end' }} direction={{ base: 'column', md: 'row' }}>
        <Stack gap="1" flex="1">
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
            <FormattedMessage id="nav.files" />
          </Heading>
          <Text color="fg.muted" fontSize={{ base: 'md', md: 'lg' }}>
            <FormattedMessage id="files.subtitle" />
          </Text>
        </Stack>
        {data && <StorageMeter storage={data.storage} />}
      </Flex>

      <Flex gap="6" align="flex-start">
        <Box as="aside" w="60" flexShrink="0" display={{ base: 'none', lg: 'block' }} position="sticky" top="20">
          <Text textStyle="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" letterSpacing="wider" mb="2" px="2">
            <FormattedMessage id="files.tree.title" />
          </Text>
          <FolderTree label={t('files.tree.title')} currentId={folderId} openIds={openIds} />
        </Box>

        <Card.Root
          flex="1"
          minW="0"
          rounded="2xl"
          shadow="xs"
          borderColor="border.muted"
          position="relative"
          overflow="hidden"
          {...drop.handlers}
          data-testid="drop-zone"
        >
          {/* Toolbar: where we are, and what can be done here. */}
          <Flex px={{ base: '3', md: '4' }} py="3" gap="3" align="center" wrap="wrap" borderBottomWidth="1px" borderColor="border.muted">
            <Box flex="1" minW="0">
              <FilesBreadcrumbs atRoot={atRoot} path={data?.path ?? []} />
            </Box>
            <HStack gap="2" wrap="wrap">
              <Button size="sm" variant="outline" onClick={() => setCreating(true)}>
                <LuFolderPlus aria-hidden />
                <FormattedMessage id="files.newFolder.button" />
              </Button>
              <Button size="sm" variant="outline" onClick={pickers.pickFolder}>
                <LuFolderUp aria-hidden />
                <FormattedMessage id="files.uploadFolder" />
              </Button>
              <Button size="sm" colorPalette="brand" onClick={pickers.pickFiles}>
                <LuUpload aria-hidden />
                <FormattedMessage id="files.upload" />
              </Button>
              {pickers.inputs}
            </HStack>
          </Flex>

          <ListControls
            selectedItems={selectedItems}
            zipping={operations.busy === 'zip'}
            onClear={clear}
            onDownloadZip={(entries) => void operations.downloadZip(entries, zipName())}
            onMove={setToMove}
            onDelete={setToDelete}
            counts={data ? { folders: data.folder_count, files: data.file_count } : null}
            sortSpec={sortSpec}
            onSort={sortBy}
            onFlipOrder={flipOrder}
            view={view}
            onView={setView}
          />

          <FolderContents
            view={view}
            atRoot={atRoot}
            isLoading={isLoading}
            isFetching={isFetching}
            notFound={isError && !data}
            onUpload={pickers.pickFiles}
            pagination={data && { page, pageSize: data.page_size, total: data.total, onChange: setPage }}
            items={items}
            selected={selected}
            onSelect={onSelect}
            onSelectAll={onSelectAll}
            renaming={renaming}
            onRename={onRename}
            onRenameCancel={() => setRenaming(null)}
            onOpenFile={(item) => item.type === 'file' && setPreview(item)}
            onAction={onAction}
            sort={sortSpec.sort}
            order={sortSpec.order}
            onSort={sortBy}
          />

          {drop.dragging && (
            <Center
              position="absolute"
              inset="0"
              bg="brand.subtle/90"
              borderWidth="2px"
              borderStyle="dashed"
              borderColor="brand.solid"
              rounded="2xl"
              pointerEvents="none"
              zIndex="1"
            >
              <Stack align="center" gap="2" color="brand.fg">
                <Icon as={LuCloudUpload} boxSize="10" aria-hidden />
                <Text fontWeight="semibold">
                  <FormattedMessage id="files.dropHere" values={{ folder: data?.folder?.name ?? t('files.myFiles') }} />
                </Text>
              </Stack>
            </Center>
          )}
        </Card.Root>
      </Flex>

      <NewFolderDialog open={creating} loading={creatingFolder} onCreate={onCreateFolder} onCancel={() => setCreating(false)} />
      <DeleteDialog items={toDelete} loading={operations.busy === 'delete'} onConfirm={confirmDelete} onCancel={() => setToDelete([])} />
      <MoveDialog
        open={toMove.length > 0}
        count={toMove.length}
        currentId={folderId}
        openIds={openIds}
        loading={operations.busy === 'move'}
        onMove={confirmMove}
        onCancel={() => setToMove([])}
      />
      <PreviewDrawer file={preview} onClose={() => setPreview(null)} onDownload={operations.downloadOne} onUseInWorkflow={openInWorkflow} />
      <UploadPanel />
    </Stack>
  );
}
