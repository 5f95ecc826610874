import { Box, chakra, Flex, Icon, SimpleGrid, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuFolder } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { DataTable, SelectBox, type DataTableColumn, type DataTableProps } from '../../components/DataTable';
import { RelativeTime } from '../../components/RelativeTime';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useLocale } from '../../i18n/useLocale';
import type { FolderEntry, FolderSortKey, SortOrder } from './filesApi';
import { fileIcon, fileTone, formatBytes } from './format';
import { ItemMenu, type ItemAction } from './ItemMenu';
import { RenameInput } from './RenameInput';

export const entryKey = (item: FolderEntry) => `${item.type}:${item.id}`;

export interface EntryViewProps {
  items: FolderEntry[];
  selected: Set<string>;
  onSelect: (index: number, shiftKey: boolean) => void;
  onSelectAll: (select: boolean) => void;
  renaming: string | null;
  onRename: (item: FolderEntry, name: string) => void;
  onRenameCancel: () => void;
  onOpenFile: (item: FolderEntry) => void;
  onAction: (action: ItemAction, item: FolderEntry) => void;
  sort: FolderSortKey;
  order: SortOrder;
  onSort: (key: FolderSortKey) => void;
}

export function EntryIcon({ item, size = '5' }: { item: FolderEntry; size?: string }) {
  if (item.type === 'folder') return <Icon as={LuFolder} boxSize={size} color="brand.solid" fill="brand.muted" aria-hidden flexShrink="0" />;
  const tone = fileTone(item.name, item.content_type);
  return <Icon as={fileIcon(item.name, item.content_type)} boxSize={size} color={`${tone}.fg`} aria-hidden flexShrink="0" />;
}

function EntryName({ item, onOpenFile, children }: { item: FolderEntry; onOpenFile: (item: FolderEntry) => void; children?: ReactNode }) {
  const style = {
    fontWeight: 'medium',
    textAlign: 'start',
    truncate: true,
    _hover: { textDecoration: 'underline' },
    _focusVisible: { outline: '2px solid', outlineColor: 'brand.focusRing', rounded: 'sm' },
  } as const;
  if (item.type === 'folder') {
    return (
      <chakra.span asChild {...style}>
        <LocaleLink to={`/files/${item.id}`}>{children ?? item.name}</LocaleLink>
      </chakra.span>
    );
  }
  return (
    <chakra.button type="button" onClick={() => onOpenFile(item)} minW="0" {...style}>
      {children ?? item.name}
    </chakra.button>
  );
}

/** What the list view shows instead of the entries, and its pager: FolderContents decides. */
export type EntryListShell = Pick<DataTableProps<FolderEntry>, 'isLoading' | 'loading' | 'isFetching' | 'empty' | 'pagination'>;

export function ListView(props: EntryViewProps & EntryListShell) {
  const { items, selected, onSelect, onSelectAll, renaming, onRename, onRenameCancel, onOpenFile, onAction, sort, order, onSort, ...shell } = props;
  const intl = useIntl();
  const locale = useLocale();
  const t = (id: string) => intl.formatMessage({ id });
  const columns: DataTableColumn<FolderEntry>[] = [
    {
      id: 'name',
      header: t('files.column.name'),
      sortable: true,
      cellProps: { maxW: '0', w: 'full' },
      cell: (item) => (
        <Flex align="center" gap="3" minW="0">
          <EntryIcon item={item} />
          {renaming === entryKey(item) ? (
            <RenameInput name={item.name} onSave={(name) => onRename(item, name)} onCancel={onRenameCancel} />
          ) : (
            <Flex direction="column" minW="0">
              <EntryName item={item} onOpenFile={onOpenFile} />
              {item.type === 'file' && (
                <Text textStyle="xs" color="fg.muted" display={{ base: 'block', sm: 'none' }}>
                  {formatBytes(item.size, locale)}
                </Text>
              )}
            </Flex>
          )}
        </Flex>
      ),
    },
    {
      id: 'size',
      header: t('files.column.size'),
      sortable: true,
      align: 'end',
      width: '28',
      display: { base: 'none', sm: 'table-cell' },
      cellProps: { color: 'fg.muted', whiteSpace: 'nowrap' },
      cell: (item) => (item.type === 'file' ? formatBytes(item.size, locale) : '—'),
    },
    {
      id: 'updated_at',
      header: t('files.column.modified'),
      sortable: true,
      width: '40',
      display: { base: 'none', md: 'table-cell' },
      cellProps: { color: 'fg.muted', whiteSpace: 'nowrap' },
      cell: (item) => <RelativeTime value={item.updated_at} />,
    },
    {
      id: 'actions',
      header: <chakra.span srOnly>{t('files.column.actions')}</chakra.span>,
      align: 'end',
      width: '12',
      cellProps: { pe: '2' },
      cell: (item) => <ItemMenu item={item} onAction={onAction} />,
    },
  ];
  return (
    <DataTable
      label={t('files.listLabel')}
      appearance="flush"
      interactive
      columns={columns}
      rows={items}
      rowKey={entryKey}
      rowProps={() => ({ 'data-testid': 'file-row' })}
      selection={{
        isSelected: (item) => selected.has(entryKey(item)),
        onToggle: (_item, index, shiftKey) => onSelect(index, shiftKey),
        onToggleAll: onSelectAll,
        allLabel: t('files.selectAll'),
        rowLabel: (item) => intl.formatMessage({ id: 'files.selectItem' }, { name: item.name }),
      }}
      // The columns' ids are the API's sort keys.
      sort={{ by: sort, order, onSort: (key) => onSort(key as FolderSortKey) }}
      {...shell}
    />
  );
}

export function GridView(props: EntryViewProps) {
  const { items, selected, onSelect, renaming, onRename, onRenameCancel, onOpenFile, onAction } = props;
  const intl = useIntl();
  const locale = useLocale();
  return (
    <SimpleGrid
      as="ul"
      columns={{ base: 2, sm: 3, md: 4, xl: 5 }}
      gap="3"
      p="4"
      aria-label={intl.formatMessage({ id: 'files.listLabel' })}
      listStyleType="none"
    >
      {items.map((item, index) => {
        const key = entryKey(item);
        const isSelected = selected.has(key);
        const tone = item.type === 'file' ? fileTone(item.name, item.content_type) : 'brand';
        return (
          <Box
            as="li"
            key={key}
            data-testid="file-row"
            position="relative"
            rounded="xl"
            borderWidth="1px"
            borderColor={isSelected ? 'brand.solid' : 'border.muted'}
            bg={isSelected ? 'brand.subtle' : 'bg.panel'}
            _hover={{ shadow: 'sm', borderColor: isSelected ? 'brand.solid' : 'border.emphasized' }}
            transition="box-shadow 0.15s, border-color 0.15s"
            p="3"
          >
            <Flex justify="space-between" align="center" mb="2">
              <SelectBox
                checked={isSelected}
                label={intl.formatMessage({ id: 'files.selectItem' }, { name: item.name })}
                onChange={(shift) => onSelect(index, shift)}
              />
              <ItemMenu item={item} onAction={onAction} />
            </Flex>
            <Flex h="16" align="center" justify="center" rounded="lg" bg={`${tone}.subtle`} mb="3">
              <EntryIcon item={item} size="8" />
            </Flex>
            {renaming === key ? (
              <RenameInput name={item.name} onSave={(name) => onRename(item, name)} onCancel={onRenameCancel} />
            ) : (
              <Box textStyle="sm" minW="0" display="grid">
                <EntryName item={item} onOpenFile={onOpenFile} />
              </Box>
            )}
            <Text textStyle="xs" color="fg.muted" mt="0.5">
              {item.type === 'file' ? formatBytes(item.size, locale) : <FormattedMessage id="files.folder" />}
            </Text>
          </Box>
        );
      })}
    </SimpleGrid>
  );
}
