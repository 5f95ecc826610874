import { Table, Text } from '@chakra-ui/react';
import { cellText } from './columnTypes';
import { NullMark } from './RecordDrawer';

interface RecordsPreviewTableProps {
  /** The columns to show, in order (`_id` is left out). */
  columns: readonly { name: string; type?: string }[];
  records: readonly Record<string, unknown>[];
  /** The table's accessible name. */
  label: string;
  /** At most this many rows. */
  rows: number;
}

/**
 * A few records as a small table that scrolls both ways: a step's data in the editor, an agent's
 * preview. Each header says its column's type when known; a long value is cut, its whole text on
 * hover. The dataset page's grid is the full view.
 */
export function RecordsPreviewTable({ columns, records, label, rows }: RecordsPreviewTableProps) {
  const shown = columns.filter((c) => c.name !== '_id');
  if (shown.length === 0 || records.length === 0) return null;
  return (
    <Table.ScrollArea borderWidth="1px" rounded="md" maxH="64">
      <Table.Root size="sm" aria-label={label} stickyHeader>
        <Table.Header>
          <Table.Row>
            {shown.map((c) => (
              <Table.ColumnHeader key={c.name} whiteSpace="nowrap" verticalAlign="bottom">
                {c.name}
                {c.type && (
                  <Text as="span" display="block" textStyle="2xs" fontFamily="mono" fontWeight="normal" color="fg.muted">
                    {c.type}
                  </Text>
                )}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {records.slice(0, rows).map((record, i) => (
            <Table.Row key={typeof record._id === 'string' ? record._id : i}>
              {shown.map((c) => {
                const value = record[c.name];
                const text = value === null || value === undefined ? null : cellText(value);
                return (
                  <Table.Cell key={c.name} maxW="48" truncate title={text ?? undefined}>
                    {text ?? <NullMark />}
                  </Table.Cell>
                );
              })}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
