import { chakra, Flex, Text } from '@chakra-ui/react';
import { useId, type KeyboardEvent } from 'react';
import { useIntl } from 'react-intl';
import { RelativeTime } from '../../components/RelativeTime';
import { useLocale } from '../../i18n/useLocale';
import { EntryIcon } from './EntryViews';
import type { FileEntry, FolderEntry, FolderItem } from './filesApi';
import { formatBytes } from './format';

interface PickerEntriesProps {
  items: FolderEntry[];
  selectedId: string | null;
  /** Whether a file may be chosen; the others are shown dimmed, saying why. */
  isChoosable: (file: FileEntry) => boolean;
  /** Why a dimmed file cannot be chosen; absent in a folder picker, where no file is. */
  notChoosableText?: string;
  onOpenFolder: (folder: FolderItem) => void;
  onSelectFile: (file: FileEntry) => void;
  /** A double click: select and choose at once. */
  onChooseFile: (file: FileEntry) => void;
}

/** Arrow keys, Home and End move between the rows, so a long folder is not a long walk with Tab. */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  const keys = ['ArrowDown', 'ArrowUp', 'Home', 'End'];
  if (!keys.includes(event.key)) return;
  const rows = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>('button[data-entry]'));
  const at = rows.indexOf(document.activeElement as HTMLButtonElement);
  const next =
    event.key === 'Home' ? 0 : event.key === 'End' ? rows.length - 1 : Math.min(rows.length - 1, Math.max(0, at + (event.key === 'ArrowDown' ? 1 : -1)));
  rows[next]?.focus();
  event.preventDefault();
}

/**
 * A folder's entries in the file picker: a folder opens, a file is selected (a double click also
 * chooses it). Rows are buttons, so Tab, Enter and Space work as everywhere; files the step cannot
 * read stay focusable (aria-disabled), so a screen reader hears them and why.
 */
export function PickerEntries({ items, selectedId, isChoosable, notChoosableText, onOpenFolder, onSelectFile, onChooseFile }: PickerEntriesProps) {
  const intl = useIntl();
  const locale = useLocale();
  const base = useId();
  return (
    <chakra.ul listStyleType="none" aria-label={intl.formatMessage({ id: 'files.listLabel' })} onKeyDown={moveFocus}>
      {items.map((item, index) => {
        // Named by its name alone, described by the rest (size, why it cannot be chosen).
        const nameId = `${base}-${index}-name`;
        const detailId = `${base}-${index}-detail`;
        const choosable = item.type === 'file' && isChoosable(item);
        const selected = item.type === 'file' && item.id === selectedId;
        const dimmed = item.type === 'file' && !choosable;
        const detail =
          item.type === 'folder'
            ? intl.formatMessage({ id: 'files.folder' })
            : [formatBytes(item.size, locale), dimmed ? notChoosableText : null].filter(Boolean).join(' · ');
        return (
          <li key={`${item.type}:${item.id}`}>
            <chakra.button
              type="button"
              data-entry={item.type}
              w="full"
              display="flex"
              alignItems="center"
              gap="3"
              px="3"
              py="2"
              rounded="md"
              textAlign="start"
              cursor={dimmed ? 'default' : 'pointer'}
              opacity={dimmed ? 0.55 : 1}
              bg={selected ? 'brand.subtle' : undefined}
              color={selected ? 'brand.fg' : 'fg'}
              _hover={dimmed ? undefined : { bg: selected ? 'brand.subtle' : 'bg.muted' }}
              _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '-2px' }}
              aria-pressed={item.type === 'file' && choosable ? selected : undefined}
              aria-disabled={dimmed || undefined}
              aria-labelledby={nameId}
              aria-describedby={detailId}
              onClick={() => {
                if (item.type === 'folder') onOpenFolder(item);
                else if (choosable) onSelectFile(item);
              }}
              onDoubleClick={() => item.type === 'file' && choosable && onChooseFile(item)}
            >
              <EntryIcon item={item} />
              <Flex direction="column" minW="0" flex="1">
                <Text as="span" id={nameId} textStyle="sm" fontWeight="medium" truncate>
                  {item.name}
                </Text>
                <Text as="span" id={detailId} textStyle="xs" color="fg.muted" truncate>
                  {detail}
                </Text>
              </Flex>
              <Text as="span" textStyle="xs" color="fg.muted" display={{ base: 'none', sm: 'block' }} whiteSpace="nowrap">
                <RelativeTime value={item.updated_at} />
              </Text>
            </chakra.button>
          </li>
        );
      })}
    </chakra.ul>
  );
}
