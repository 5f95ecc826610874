import { Box, Breadcrumb, Button, ButtonGroup, Card, Center, EmptyState, Flex, Heading, HStack, Icon, IconButton, NativeSelect, Skeleton, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { LuArrowDownWideNarrow, LuArrowUpNarrowWide, LuCloudUpload, LuDownload, LuFolderInput, LuFolderPlus, LuFolderUp, LuFolderX, LuLayoutGrid, LuList, LuTrash2, LuUpload, LuX } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useParams } from 'react-router-dom';
import { useAppDispatch } from '../../app/hooks';
import { usePageTitle } from '../../app/usePageTitle';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useLocalePath } from '../../i18n/useLocale';
import { baseApi } from '../../services/baseApi';
import { addMessage } from '../notices/noticesSlice';
import { filesFromDataTransfer, filesFromInput } from './collectFiles';
import { DeleteDialog } from './DeleteDialog';
import { entryKey, GridView, ListView } from './EntryViews';
import {
  useCreateFolderMutation,
  useDeleteFileMutation,
  useDeleteFolderMutation,
  useGetFolderQuery,
  useMoveFileMutation,
  useRenameFileMutation,
  useRenameFolderMutation,
  type FileEntry,
  type FolderEntry,
  type FolderSortKey,
  type SortOrder,
} from './filesApi';
import { FolderTree } from './FolderTree';
import type { ItemAction } from './ItemMenu';
import { MoveDialog } from './MoveDialog';
import { NewFolderDialog } from './NewFolderDialog';
import { PreviewDrawer } from './PreviewDrawer';
import { StorageMeter } from './StorageMeter';
import { downloadFile, fetchZip, reportTransferFailure, requestJson, saveBlob } from './transfer';
import { bindUploadDispatch, uploads } from './uploads';
import { UploadPanel } from './UploadPanel';

export const FILES_PAGE_SIZE = 50;
const VIEW_KEY = 'stepwise.files.view';
const SORT_KEY = 'stepwise.files.sort';
type View = 'list' | 'grid';
const SORTS: FolderSortKey[] = ['name', 'size', 'updated_at', 'created_at'];

function stored<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  const value = localStorage.getItem(key);
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/** `/files` and `/files/:folderId`: the file manager. */
export function FilesPage() {
  usePageTitle('nav.files');
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const folderId = useParams().folderId ?? 'root';

  const [view, setView] = useState<View>(() => stored(VIEW_KEY, ['list', 'grid'] as const, 'list'));
  const [sortSpec, setSortSpec] = useState(() => {
    const [sort, order] = (localStorage.getItem(SORT_KEY) ?? '').split(':');
    return { sort: SORTS.includes(sort as FolderSortKey) ? (sort as FolderSortKey) : 'name', order: order === 'desc' ? ('desc' as SortOrder) : ('asc' as SortOrder) };
  });
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const anchor = useRef<number | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<FolderEntry[]>([]);
  const [toMove, setToMove] = useState<FileEntry[]>([]);
  const [preview, setPreview] = useState<FileEntry | null>(null);
  const [creating, setCreating] = useState(false);
  const [busy, setBusy] = useState<'delete' | 'move' | 'zip' | null>(null);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    bindUploadDispatch(dispatch);
  }, [dispatch]);
  useEffect(() => localStorage.setItem(VIEW_KEY, view), [view]);
  useEffect(() => localStorage.setItem(SORT_KEY, `${sortSpec.sort}:${sortSpec.order}`), [sortSpec]);
  // A new folder starts on its first page with nothing selected.
  useEffect(() => {
    setPage(1);
    setSelected(new Set());
    anchor.current = null;
    setRenaming(null);
  }, [folderId]);

  const { data, isLoading, isError, isFetching } = useGetFolderQuery({ id: folderId, page, page_size: FILES_PAGE_SIZE, sort: sortSpec.sort, order: sortSpec.order });
  const items = useMemo(() => data?.items ?? [], [data]);
  const [createFolder, { isLoading: creatingFolder }] = useCreateFolderMutation();
  const [renameFile] = useRenameFileMutation();
  const [renameFolder] = useRenameFolderMutation();
  const [deleteFile] = useDeleteFileMutation();
  const [deleteFolder] = useDeleteFolderMutation();
  const [moveFile] = useMoveFileMutation();

  // Selections only hold what is on screen: paging or a refresh drops what went away.
  useEffect(() => {
    setSelected((current) => {
      const keys = new Set(items.map(entryKey));
      const next = new Set([...current].filter((k) => keys.has(k)));
      return next.size === current.size ? current : next;
    });
  }, [items]);

  const selectedItems = items.filter((item) => selected.has(entryKey(item)));
  const selectedFiles = selectedItems.filter((item): item is FileEntry => item.type === 'file');
  const currentFolderId = folderId === 'root' ? null : folderId;
  const openIds = useMemo(() => (data?.path ?? []).map((p) => p.id), [data?.path]);
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;

  const onSelect = useCallback(
    (index: number, shiftKey: boolean) => {
      setSelected((current) => {
        const next = new Set(current);
        const key = entryKey(items[index]);
        const select = !current.has(key);
        if (shiftKey && anchor.current !== null) {
          const [from, to] = [Math.min(anchor.current, index), Math.max(anchor.current, index)];
          for (let i = from; i <= to; i += 1) {
            if (select) next.add(entryKey(items[i]));
            else next.delete(entryKey(items[i]));
          }
        } else if (select) next.add(key);
        else next.delete(key);
        return next;
      });
      anchor.current = index;
    },
    [items],
  );
  const onSelectAll = (select: boolean) => setSelected(select ? new Set(items.map(entryKey)) : new Set());
  const onSort = (sort: FolderSortKey) =>
    setSortSpec((current) => ({ sort, order: current.sort === sort ? (current.order === 'asc' ? 'desc' : 'asc') : sort === 'name' ? 'asc' : 'desc' }));

  const startUploads = (pending: ReturnType<typeof filesFromInput>) => {
    if (pending.length === 0) return;
    if (pending.every((p) => p.dirs.length === 0)) uploads.enqueue(pending.map((p) => p.file!).filter(Boolean), currentFolderId);
    else void uploads.enqueueTree(pending, currentFolderId);
  };

  const onDrop = async (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    startUploads(await filesFromDataTransfer(event.dataTransfer));
  };
  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

  const zipName = () => `${data?.folder?.name ?? intl.formatMessage({ id: 'files.zipName' })}.zip`;
  const downloadZip = async (entries: FolderEntry[], name = zipName()) => {
    setBusy('zip');
    try {
      const blob = await fetchZip(
        entries.filter((e) => e.type === 'file').map((e) => e.id),
        entries.filter((e) => e.type === 'folder').map((e) => e.id),
        name,
      );
      saveBlob(blob, name);
    } catch (err) {
      reportTransferFailure(dispatch, err);
    } finally {
      setBusy(null);
    }
  };
  const downloadOne = async (file: FileEntry) => {
    try {
      await downloadFile(file.id, file.name);
    } catch (err) {
      reportTransferFailure(dispatch, err);
    }
  };
  const openInWorkflow = (file: FileEntry) =>
    navigate(`${localePath('/workflows')}?${new URLSearchParams({ file_id: file.id, file_name: file.name }).toString()}`);

  const onAction = (action: ItemAction, item: FolderEntry) => {
    if (action === 'open' && item.type === 'folder') navigate(localePath(`/files/${item.id}`));
    else if (action === 'preview' && item.type === 'file') setPreview(item);
    else if (action === 'download') void (item.type === 'file' ? downloadOne(item) : downloadZip([item], `${item.name}.zip`));
    else if (action === 'rename') setRenaming(entryKey(item));
    else if (action === 'move' && item.type === 'file') setToMove([item]);
    else if (action === 'workflow' && item.type === 'file') openInWorkflow(item);
    else if (action === 'delete') setToDelete([item]);
  };

  const onRename = async (item: FolderEntry, name: string) => {
    setRenaming(null);
    if (item.type === 'file') await renameFile({ id: item.id, name });
    else await renameFolder({ folder_id: item.id, name });
  };

  /** One item: the RTK mutation (its server message is the notice). Several: one summary. */
  const runMany = async <T,>(targets: T[], one: (target: T) => Promise<boolean>, many: (target: T) => Promise<unknown>, doneId: string) => {
    if (targets.length === 1) return one(targets[0]);
    let done = 0;
    for (const target of targets) {
      try {
        await many(target);
        done += 1;
      } catch (err) {
        reportTransferFailure(dispatch, err);
      }
    }
    dispatch(baseApi.util.invalidateTags(['Folder', 'File']));
    if (done > 0) dispatch(addMessage({ type: 'success', text: t(doneId, { count: done }) }));
    return done === targets.length;
  };

  const confirmDelete = async () => {
    setBusy('delete');
    const ok = await runMany(
      toDelete,
      async (item) => 'data' in (item.type === 'file' ? await deleteFile(item.id) : await deleteFolder(item.id)),
      (item) => requestJson('DELETE', item.type === 'file' ? `/files/${item.id}` : `/files/folders/${item.id}`),
      'files.delete.done',
    );
    setBusy(null);
    if (ok) {
      setToDelete([]);
      setSelected(new Set());
      if (data && toDelete.length >= items.length && page > 1) setPage(page - 1);
    }
  };

  const confirmMove = async (target: string | null) => {
    setBusy('move');
    const ok = await runMany(
      toMove,
      async (file) => 'data' in (await moveFile({ id: file.id, folder_id: target })),
      (file) => requestJson('PUT', `/files/files/${file.id}/move`, { folder_id: target }),
      'files.move.done',
    );
    setBusy(null);
    if (ok) {
      setToMove([]);
      setSelected(new Set());
    }
  };

  const onCreateFolder = async (name: string) => {
    const result = await createFolder({ name, parent_id: currentFolderId });
    if ('data' in result) setCreating(false);
  };

  const breadcrumbs = (
    <Breadcrumb.Root size="md" aria-label={t('files.breadcrumbs')} minW="0">
      <Breadcrumb.List flexWrap="wrap" rowGap="1">
        <Breadcrumb.Item>
          {folderId === 'root' ? (
            <Breadcrumb.CurrentLink fontWeight="semibold">{t('files.myFiles')}</Breadcrumb.CurrentLink>
          ) : (
            <Breadcrumb.Link asChild>
              <LocaleLink to="/files">{t('files.myFiles')}</LocaleLink>
            </Breadcrumb.Link>
          )}
        </Breadcrumb.Item>
        {(data?.path ?? []).map((crumb, i, all) => (
          <Box as="span" key={crumb.id} display="contents">
            <Breadcrumb.Separator />
            <Breadcrumb.Item minW="0">
              {i === all.length - 1 ? (
                <Breadcrumb.CurrentLink fontWeight="semibold" truncate maxW="60">
                  {crumb.name}
                </Breadcrumb.CurrentLink>
              ) : (
                <Breadcrumb.Link asChild truncate maxW="40">
                  <LocaleLink to={`/files/${crumb.id}`}>{crumb.name}</LocaleLink>
                </Breadcrumb.Link>
              )}
            </Breadcrumb.Item>
          </Box>
        ))}
      </Breadcrumb.List>
    </Breadcrumb.Root>
  );

  const viewProps = {
    items,
    selected,
    onSelect,
    onSelectAll,
    renaming,
    onRename,
    onRenameCancel: () => setRenaming(null),
    onOpenFile: (item: FolderEntry) => item.type === 'file' && setPreview(item),
    onAction,
    sort: sortSpec.sort,
    order: sortSpec.order,
    onSort,
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
          onDragEnter={(e: DragEvent) => hasFiles(e) && setDragging(true)}
          onDragOver={(e: DragEvent) => {
            if (!hasFiles(e)) return;
            e.preventDefault();
            e.dataTransfer.dropEffect = 'copy';
          }}
          onDragLeave={(e: DragEvent) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
          }}
          onDrop={onDrop}
          data-testid="drop-zone"
        >
          {/* Toolbar: where we are, and what can be done here. */}
          <Flex px={{ base: '3', md: '4' }} py="3" gap="3" align="center" wrap="wrap" borderBottomWidth="1px" borderColor="border.muted">
            <Box flex="1" minW="0">
              {breadcrumbs}
            </Box>
            <HStack gap="2" wrap="wrap">
              <Button size="sm" variant="outline" onClick={() => setCreating(true)}>
                <LuFolderPlus aria-hidden />
                <FormattedMessage id="files.newFolder.button" />
              </Button>
              <Button size="sm" variant="outline" onClick={() => folderInput.current?.click()}>
                <LuFolderUp aria-hidden />
                <FormattedMessage id="files.uploadFolder" />
              </Button>
              <Button size="sm" colorPalette="brand" onClick={() => fileInput.current?.click()}>
                <LuUpload aria-hidden />
                <FormattedMessage id="files.upload" />
              </Button>
              <VisuallyHidden>
                <input
                  ref={fileInput}
                  type="file"
                  multiple
                  tabIndex={-1}
                  aria-label={t('files.upload')}
                  data-testid="upload-files-input"
                  onChange={(e) => {
                    startUploads(filesFromInput(e.target.files));
                    e.target.value = '';
                  }}
                />
                <input
                  ref={(el) => {
                    folderInput.current = el;
                    // Not a React prop: set the attribute so browsers offer a folder picker.
                    el?.setAttribute('webkitdirectory', '');
                  }}
                  type="file"
                  multiple
                  tabIndex={-1}
                  aria-label={t('files.uploadFolder')}
                  data-testid="upload-folder-input"
                  onChange={(e) => {
                    startUploads(filesFromInput(e.target.files));
                    e.target.value = '';
                  }}
                />
              </VisuallyHidden>
            </HStack>
          </Flex>

          {/* Second row: selection actions, or sort and view. */}
          <Flex px={{ base: '3', md: '4' }} py="2" gap="2" align="center" wrap="wrap" minH="12" bg={selectedItems.length ? 'brand.subtle' : undefined} borderBottomWidth="1px" borderColor="border.muted">
            {selectedItems.length > 0 ? (
              <>
                <IconButton size="xs" variant="ghost" aria-label={t('files.clearSelection')} onClick={() => setSelected(new Set())}>
                  <LuX />
                </IconButton>
                <Text textStyle="sm" fontWeight="medium" flex="1" aria-live="polite">
                  <FormattedMessage id="files.selected" values={{ count: selectedItems.length }} />
                </Text>
                <HStack gap="1" wrap="wrap">
                  <Button size="xs" variant="ghost" loading={busy === 'zip'} onClick={() => void downloadZip(selectedItems)}>
                    <LuDownload aria-hidden />
                    <FormattedMessage id="files.downloadZip" />
                  </Button>
                  <Button
                    size="xs"
                    variant="ghost"
                    disabled={selectedFiles.length !== selectedItems.length}
                    title={selectedFiles.length !== selectedItems.length ? t('files.move.onlyFiles') : undefined}
                    onClick={() => setToMove(selectedFiles)}
                  >
                    <LuFolderInput aria-hidden />
                    <FormattedMessage id="files.action.move" />
                  </Button>
                  <Button size="xs" variant="ghost" colorPalette="red" onClick={() => setToDelete(selectedItems)}>
                    <LuTrash2 aria-hidden />
                    <FormattedMessage id="files.action.delete" />
                  </Button>
                </HStack>
              </>
            ) : (
              <>
                <Text textStyle="sm" color="fg.muted" flex="1">
                  {data && <FormattedMessage id="files.counts" values={{ folders: data.folder_count, files: data.file_count }} />}
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
                <IconButton
                  size="xs"
                  variant="ghost"
                  aria-label={t(sortSpec.order === 'asc' ? 'files.order.asc' : 'files.order.desc')}
                  title={t(sortSpec.order === 'asc' ? 'files.order.asc' : 'files.order.desc')}
                  onClick={() => setSortSpec((s) => ({ ...s, order: s.order === 'asc' ? 'desc' : 'asc' }))}
                >
                  {sortSpec.order === 'asc' ? <LuArrowUpNarrowWide /> : <LuArrowDownWideNarrow />}
                </IconButton>
                <ButtonGroup size="xs" variant="outline" attached role="group" aria-label={t('files.view')}>
                  <IconButton aria-label={t('files.view.list')} aria-pressed={view === 'list'} variant={view === 'list' ? 'subtle' : 'outline'} onClick={() => setView('list')}>
                    <LuList />
                  </IconButton>
                  <IconButton aria-label={t('files.view.grid')} aria-pressed={view === 'grid'} variant={view === 'grid' ? 'subtle' : 'outline'} onClick={() => setView('grid')}>
                    <LuLayoutGrid />
                  </IconButton>
                </ButtonGroup>
              </>
            )}
          </Flex>

          <Box minH="80" opacity={isFetching && !isLoading ? 0.7 : 1} transition="opacity 0.2s">
            {isLoading ? (
              <Stack p="4" gap="3">
                {[0, 1, 2, 3, 4].map((i) => (
                  <Skeleton key={i} h="8" />
                ))}
              </Stack>
            ) : isError && !data ? (
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
            ) : items.length === 0 ? (
              <EmptyState.Root py="16">
                <EmptyState.Content>
                  <EmptyState.Indicator color="brand.fg" bg="brand.subtle" rounded="full" p="4">
                    <LuCloudUpload />
                  </EmptyState.Indicator>
                  <Stack textAlign="center" gap="1">
                    <EmptyState.Title>
                      <FormattedMessage id={folderId === 'root' ? 'files.empty.rootTitle' : 'files.empty.title'} />
                    </EmptyState.Title>
                    <EmptyState.Description maxW="sm">
                      <FormattedMessage id="files.empty.body" />
                    </EmptyState.Description>
                  </Stack>
                  <Button colorPalette="brand" size="sm" onClick={() => fileInput.current?.click()}>
                    <LuUpload aria-hidden />
                    <FormattedMessage id="files.upload" />
                  </Button>
                </EmptyState.Content>
              </EmptyState.Root>
            ) : view === 'list' ? (
              <ListView {...viewProps} />
            ) : (
              <GridView {...viewProps} />
            )}
          </Box>

          {data && pages > 1 && (
            <Flex px="4" py="3" gap="2" align="center" justify="space-between" borderTopWidth="1px" borderColor="border.muted">
              <Button size="xs" variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                <FormattedMessage id="common.previous" />
              </Button>
              <Text textStyle="sm" color="fg.muted">
                <FormattedMessage id="common.pageOf" values={{ page, pages }} />
              </Text>
              <Button size="xs" variant="outline" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                <FormattedMessage id="common.next" />
              </Button>
            </Flex>
          )}

          {dragging && (
            <Center position="absolute" inset="0" bg="brand.subtle/90" borderWidth="2px" borderStyle="dashed" borderColor="brand.solid" rounded="2xl" pointerEvents="none" zIndex="1">
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
      <DeleteDialog items={toDelete} loading={busy === 'delete'} onConfirm={confirmDelete} onCancel={() => setToDelete([])} />
      <MoveDialog open={toMove.length > 0} count={toMove.length} currentId={folderId} openIds={openIds} loading={busy === 'move'} onMove={confirmMove} onCancel={() => setToMove([])} />
      <PreviewDrawer file={preview} onClose={() => setPreview(null)} onDownload={downloadOne} onUseInWorkflow={openInWorkflow} />
      <UploadPanel />
    </Stack>
  );
}
