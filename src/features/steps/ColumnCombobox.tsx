import { Combobox, createListCollection, Portal, Text } from '@chakra-ui/react';
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useIntl } from 'react-intl';

/** The picker keeps no choice of its own: a pick is handed to onPick, and the box holds the text. */
const NOTHING_CHOSEN: string[] = [];

/** A column the picker offers: its name, and its type when the input's columns are known. */
export interface ColumnChoice {
  name: string;
  type?: string;
  /** Shown beside it instead of its type (a value's count). */
  note?: string;
}

interface ColumnComboboxProps {
  id?: string;
  label: string;
  columns: ColumnChoice[];
  /** The text in the box: a single column param's value, or what is being typed for a list. */
  inputValue: string;
  onInputValueChange: (text: string) => void;
  /** A column chosen from the list (click, or Enter on the highlighted one). */
  onPick: (name: string) => void;
  /** For a list of columns: the box empties after each pick, ready for the next. */
  clearOnPick?: boolean;
  /** Enter (or a comma) with no column highlighted: the typed text is to be taken as it is. */
  onEnterTyped?: () => void;
  onBackspaceEmpty?: () => void;
  onBlur?: () => void;
  placeholder?: string;
  /** What the open list says when it has nothing to offer; by default, that typing is fine. */
  emptyText?: string;
  size?: 'xs' | 'sm' | 'md';
}

/** DuckDB's type names in a word people know (VARCHAR → text, BIGINT → integer, DECIMAL(18,2) →
 *  decimal…), null for the rare others, which are shown as DuckDB names them. */
export function typeWord(type: string | undefined): string | null {
  if (!type || type === 'UNKNOWN') return null;
  const t = type.toUpperCase();
  if (/^(VARCHAR|TEXT|STRING|UUID)/.test(t)) return 'text';
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)/.test(t)) return 'integer';
  if (/^(DOUBLE|FLOAT|REAL)/.test(t)) return 'number';
  if (/^DECIMAL/.test(t)) return 'decimal';
  if (/^BOOL/.test(t)) return 'boolean';
  if (/^TIMESTAMP/.test(t)) return 'timestamp';
  if (/^DATE/.test(t)) return 'date';
  if (/\[\]$|^LIST/.test(t)) return 'list';
  if (/^(STRUCT|MAP|JSON)/.test(t)) return 'json';
  return null;
}

/**
 * Where a param names a column: a text box that lists the input's columns (with their types) as
 * you click or type, filtered by what is typed, and still takes any text: a column a step further
 * up will add is not in the list yet. Built on Chakra's Combobox (Zag): the keyboard, the listbox
 * roles and the positioning come from there.
 */
export function ColumnCombobox({
  id,
  label,
  columns,
  inputValue,
  onInputValueChange,
  onPick,
  clearOnPick = false,
  onEnterTyped,
  onBackspaceEmpty,
  onBlur,
  placeholder,
  emptyText,
  size = 'sm',
}: ColumnComboboxProps) {
  const intl = useIntl();
  // What the list is filtered by: the text as typed; opening the list by a click shows every
  // column, also when the box already holds one.
  const [query, setQuery] = useState('');
  const highlighted = useRef<string | null>(null);
  const ownId = useId();
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? columns.filter((c) => c.name.toLowerCase().includes(q)) : columns;
  }, [columns, query]);
  const collection = useMemo(() => createListCollection({ items: shown, itemToString: (c) => c.name, itemToValue: (c) => c.name }), [shown]);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if ((event.key === 'Enter' || event.key === ',') && onEnterTyped && !highlighted.current) {
      event.preventDefault();
      onEnterTyped();
    } else if (event.key === 'Backspace' && !inputValue && onBackspaceEmpty) {
      onBackspaceEmpty();
    }
  };
  return (
    <Combobox.Root
      collection={collection}
      // Zag finds its input by id, and takes the enclosing field's control id unless told: each
      // picker in a field's rows (Summaries) needs its own.
      ids={{ input: id ?? ownId }}
      inputValue={inputValue}
      onInputValueChange={(details) => {
        if (details.reason === 'input-change') setQuery(details.inputValue);
        onInputValueChange(details.inputValue);
      }}
      value={NOTHING_CHOSEN}
      onValueChange={(details) => {
        const picked = details.value[0];
        if (picked) onPick(picked);
      }}
      onHighlightChange={(details) => {
        highlighted.current = details.highlightedValue;
      }}
      onOpenChange={(details) => {
        if (details.open && (details.reason === 'input-click' || details.reason === 'trigger-click' || details.reason === 'arrow-key')) setQuery('');
      }}
      allowCustomValue
      openOnClick
      selectionBehavior={clearOnPick ? 'clear' : 'replace'}
      inputBehavior="none"
      size={size}
      width="full"
      lazyMount
      unmountOnExit
      positioning={{ placement: 'bottom-start', flip: true }}
    >
      <Combobox.Control>
        <Combobox.Input aria-label={label} placeholder={placeholder} onKeyDown={onKeyDown} onBlur={onBlur} autoComplete="off" />
        <Combobox.IndicatorGroup>
          <Combobox.Trigger aria-label={intl.formatMessage({ id: 'params.columns.show' }, { label })} />
        </Combobox.IndicatorGroup>
      </Combobox.Control>
      <Portal>
        <Combobox.Positioner>
          <Combobox.Content maxH="64" overflowY="auto" minW="56">
            <Combobox.Empty px="2" py="1.5" textStyle="sm" color="fg.muted">
              {emptyText ?? (columns.length ? intl.formatMessage({ id: 'params.columns.noMatch' }) : intl.formatMessage({ id: 'params.columns.noneKnown' }))}
            </Combobox.Empty>
            {shown.map((column) => {
              const word = typeWord(column.type);
              const type =
                column.note ?? (word ? intl.formatMessage({ id: `params.columns.type.${word}` }) : column.type !== 'UNKNOWN' ? column.type : undefined);
              return (
                <Combobox.Item key={column.name} item={column} justifyContent="space-between" gap="3">
                  <Combobox.ItemText truncate>{column.name}</Combobox.ItemText>
                  {type && (
                    <Text as="span" textStyle="xs" color="fg.muted" flexShrink={0}>
                      {type}
                    </Text>
                  )}
                </Combobox.Item>
              );
            })}
          </Combobox.Content>
        </Combobox.Positioner>
      </Portal>
    </Combobox.Root>
  );
}
