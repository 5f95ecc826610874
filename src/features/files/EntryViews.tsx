import { Box, chakra, Flex, Icon, SimpleGrid, Table, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuArrowDown, LuArrowUp, LuFolder } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
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

/** A real checkbox: keyboard and screen readers know it, and its click tells about Shift. */
function SelectBox({
  checked,
  label,
  onChange,
  indeterminate,
}: {
  checked: boolean;
  label: string;
  onChange: (shiftKey: boolean) => void;
  indeterminate?: boolean;
}) {
  return (
    <chakra.input
      type="checkbox"
      checked={checked}
      aria-label={label}
      ref={(el: HTMLInputElement | null) => {
        if (el) el.indeterminate = !!indeterminate;
      }}
      onChange={() => undefined}
      onClick={(e: React.MouseEvent<HTMLInputElement>) => {
        e.stopPropagation();
        onChange(e.shiftKey);
      }}
      boxSize="4"
      cursor="pointer"
      css={{ accentColor: 'var(--chakra-colors-brand-solid)' }}
    />
  );
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

function SortHeader({
  label,
  column,
  sort,
  order,
  onSort,
  ...rest
}: { label: string; column: FolderSortKey; sort: FolderSortKey; order: SortOrder; onSort: (key: FolderSortKey) => void } & Table.ColumnHeaderProps) {
  const active = sort === column;
  return (
    <Table.ColumnHeader aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'} {...rest}>
      <chakra.button
        type="button"
        display="inline-flex"
        alignItems="center"
        gap="1"
        fontWeight="semibold"
        color={active ? 'fg' : 'fg.muted'}
        onClick={() => onSort(column)}
      >
        {label}
        {active && (order === 'asc' ? <LuArrowUp aria-hidden /> : <LuArrowDown aria-hidden />)}
      </chakra.button>
    </Table.ColumnHeader>
  );
}

export function ListView(props: EntryViewProps) {
  const { items, selected, onSelect, onSelectAll, renaming, onRename, onRenameCancel, onOpenFile, onAction, sort, order, onSort } = props;
  const intl = useIntl();
  const locale = useLocale();
  const t = (id: string) => intl.formatMessage({ id });
  const allSelected = items.length > 0 && items.every((item) => selected.has(entryKey(item)));
  const someSelected = !allSelected && items.some((item) => selected.has(entryKey(item)));
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" interactive aria-label={t('files.listLabel')}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader w="10" ps="4">
              <SelectBox checked={allSelected} indeterminate={someSelected} label={t('files.selectAll')} onChange={() => onSelectAll(!allSelected)} />
            </Table.ColumnHeader>
            <SortHeader label={t('files.column.name')} column="name" sort={sort} order={order} onSort={onSort} />
            <SortHeader
              label={t('files.column.size')}
              column="size"
              sort={sort}
              order={order}
              onSort={onSort}
              w="28"
              textAlign="end"
              display={{ base: 'none', sm: 'table-cell' }}
            />
            <SortHeader
              label={t('files.column.modified')}
              column="updated_at"
              sort={sort}
              order={order}
              onSort={onSort}
              w="40"
              display={{ base: 'none', md: 'table-cell' }}
            />
            <Table.ColumnHeader w="12">
              <chakra.span srOnly>{t('files.column.actions')}</chakra.span>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {items.map((item, index) => {
            const key = entryKey(item);
            const isSelected = selected.has(key);
            return (
              <Table.Row key={key} data-selected={isSelected || undefined} bg={isSelected ? 'brand.subtle' : undefined} data-testid="file-row">
                <Table.Cell ps="4">
                  <SelectBox
                    checked={isSelected}
                    label={intl.formatMessage({ id: 'files.selectItem' }, { name: item.name })}
                    onChange={(shift) => onSelect(index, shift)}
                  />
                </Table.Cell>
                <Table.Cell maxW="0" w="full">
                  <Flex align="center" gap="3" minW="0">
                    <EntryIcon item={item} />
                    {renaming === key ? (
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
                </Table.Cell>
                <Table.Cell textAlign="end" color="fg.muted" display={{ base: 'none', sm: 'table-cell' }} whiteSpace="nowrap">
                  {item.type === 'file' ? formatBytes(item.size, locale) : '—'}
                </Table.Cell>
                <Table.Cell color="fg.muted" display={{ base: 'none', md: 'table-cell' }} whiteSpace="nowrap">
                  <RelativeTime value={item.updated_at} />
                </Table.Cell>
                <Table.Cell textAlign="end" pe="2">
                  <ItemMenu item={item} onAction={onAction} />
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
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
