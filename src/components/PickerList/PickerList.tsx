import { Box, Button, chakra, Flex, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useId, type Key, type KeyboardEvent, type ReactNode } from 'react';
import { useIntl } from 'react-intl';

/** What a row shows: its name (the button's accessible name) and a line of detail (its description). */
export interface PickerRow {
  name: string;
  detail?: ReactNode;
  /** Before the name (a file's icon). */
  icon?: ReactNode;
  /** After the name, hidden on phones (when it was changed). */
  aside?: ReactNode;
}

export interface PickerListProps<Item> {
  /** The list's accessible name. */
  label: string;
  items: readonly Item[];
  itemKey: (item: Item) => Key;
  row: (item: Item) => PickerRow;
  /** The item shown selected (aria-pressed). */
  isSelected: (item: Item) => boolean;
  /** Items that cannot be chosen stay focusable but dimmed and aria-disabled, so a screen reader hears them and why. */
  isDisabled?: (item: Item) => boolean;
  /** Items that open rather than select (a folder) are plain buttons, without a pressed state. */
  isSelectable?: (item: Item) => boolean;
  /** A click (or Enter, Space) on an enabled row: select it, or open it. */
  onActivate: (item: Item) => void;
  /** A double click on an enabled, selectable row: select and choose at once. */
  onChoose: (item: Item) => void;
  /** The first page is on its way. */
  isLoading: boolean;
  /** Another page or filter is on its way: the current one is dimmed. */
  isFetching?: boolean;
  /** Shown instead of the list when set (the list could not be read). */
  error?: ReactNode;
  /** Shown when there are no items (no match for the filter, nothing yet). */
  emptyText: string;
  /** Previous / page of pages / Next under the list, when there is more than one page. */
  page?: number;
  pages?: number;
  onPageChange?: (page: number) => void;
  /** Room the list keeps while it has few rows, so the dialog does not jump as it loads. */
  minH?: string;
}

/** Arrow keys, Home and End move between the rows, so a long list is not a long walk with Tab. */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  const keys = ['ArrowDown', 'ArrowUp', 'Home', 'End'];
  if (!keys.includes(event.key)) return;
  const rows = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>('button[data-picker-row]'));
  const at = rows.indexOf(document.activeElement as HTMLButtonElement);
  const next =
    event.key === 'Home' ? 0 : event.key === 'End' ? rows.length - 1 : Math.min(rows.length - 1, Math.max(0, at + (event.key === 'ArrowDown' ? 1 : -1)));
  rows[next]?.focus();
  event.preventDefault();
}

/**
 * The list inside a picker dialog (datasets, files and folders): loading, an error, an empty text,
 * or rows that select on a click and choose on a double click, with a compact pager below. Rows are
 * buttons, so Tab, Enter and Space work as everywhere.
 */
export function PickerList<Item>(props: PickerListProps<Item>) {
  const { isLoading, isFetching, error, items, emptyText, page = 1, pages = 1, onPageChange, minH } = props;
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  return (
    <>
      <Box
        flex="1"
        minH={minH}
        maxH="md"
        overflowY="auto"
        borderWidth="1px"
        borderColor="border.muted"
        rounded="lg"
        p="1"
        opacity={isFetching && !isLoading ? 0.7 : 1}
      >
        {isLoading ? (
          <Stack p="2" gap="2">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} h="9" />
            ))}
          </Stack>
        ) : error ? (
          error
        ) : items.length === 0 ? (
          <Text textStyle="sm" color="fg.muted" p="4" textAlign="center">
            {emptyText}
          </Text>
        ) : (
          <PickerRows {...props} />
        )}
      </Box>
      {onPageChange && pages > 1 && (
        <Flex gap="2" align="center" justify="space-between">
          <Button size="xs" variant="outline" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
            {t('common.previous')}
          </Button>
          <Text textStyle="xs" color="fg.muted">
            {t('common.pageOf', { page, pages })}
          </Text>
          <Button size="xs" variant="outline" disabled={page >= pages} onClick={() => onPageChange(page + 1)}>
            {t('common.next')}
          </Button>
        </Flex>
      )}
    </>
  );
}

function PickerRows<Item>({
  label,
  items,
  itemKey,
  row,
  isSelected,
  isDisabled = () => false,
  isSelectable = () => true,
  onActivate,
  onChoose,
}: PickerListProps<Item>) {
  const base = useId();
  return (
    <chakra.ul listStyleType="none" aria-label={label} onKeyDown={moveFocus}>
      {items.map((item, index) => {
        // Named by its name alone, described by the rest (details, why it cannot be chosen).
        const nameId = `${base}-${index}-name`;
        const detailId = `${base}-${index}-detail`;
        const { name, detail, icon, aside } = row(item);
        const selectable = isSelectable(item);
        const dimmed = isDisabled(item);
        const selected = selectable && !dimmed && isSelected(item);
        return (
          <li key={itemKey(item)}>
            <chakra.button
              type="button"
              data-picker-row=""
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
              aria-pressed={selectable && !dimmed ? selected : undefined}
              aria-disabled={dimmed || undefined}
              aria-labelledby={nameId}
              aria-describedby={detail === undefined ? undefined : detailId}
              onClick={() => !dimmed && onActivate(item)}
              onDoubleClick={() => selectable && !dimmed && onChoose(item)}
            >
              {icon}
              <Flex direction="column" minW="0" flex="1">
                <Text as="span" id={nameId} textStyle="sm" fontWeight="medium" truncate>
                  {name}
                </Text>
                {detail !== undefined && (
                  <Text as="span" id={detailId} textStyle="xs" color="fg.muted" truncate>
                    {detail}
                  </Text>
                )}
              </Flex>
              {aside !== undefined && (
                <Text as="span" textStyle="xs" color="fg.muted" display={{ base: 'none', sm: 'block' }} whiteSpace="nowrap">
                  {aside}
                </Text>
              )}
            </chakra.button>
          </li>
        );
      })}
    </chakra.ul>
  );
}
