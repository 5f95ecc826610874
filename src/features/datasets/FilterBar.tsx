import { Button, Flex, Input, NativeSelect, Tag } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LuFilter } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { filterValue, kindOf, opsFor, takesValue } from './columnTypes';
import type { DatasetColumn, FilterOp, RecordsFilter } from './datasetsApi';

const valueText = (value: unknown) => (Array.isArray(value) ? value.join(', ') : String(value));

/** Adds one filter at a time (column, operator, a value input of the column's type); each shows as a removable chip. */
export function FilterBar({
  columns,
  filters,
  onChange,
}: {
  columns: DatasetColumn[];
  filters: RecordsFilter[];
  onChange: (filters: RecordsFilter[]) => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const [column, setColumn] = useState(columns[0]?.name ?? '');
  const type = columns.find((c) => c.name === column)?.type ?? 'VARCHAR';
  const ops = opsFor(type);
  const [chosenOp, setOp] = useState<FilterOp>(ops[0]);
  const op = ops.includes(chosenOp) ? chosenOp : ops[0];
  const [text, setText] = useState('');
  const kind = kindOf(type);

  const add = (event: FormEvent) => {
    event.preventDefault();
    if (takesValue(op) && text.trim() === '') return;
    onChange([...filters, takesValue(op) ? { column, op, value: filterValue(type, op, text) } : { column, op }]);
    setText('');
  };

  const opLabel = (o: FilterOp) => t(`datasets.filter.op.${o}`);
  const inputType = op === 'in' ? 'text' : kind === 'number' ? 'number' : kind === 'date' ? 'date' : kind === 'datetime' ? 'datetime-local' : 'text';

  return (
    <Flex direction="column" gap="2">
      <Flex as="form" onSubmit={add} gap="2" wrap="wrap" align="center" aria-label={t('datasets.filter.add')}>
        <NativeSelect.Root size="sm" width="auto">
          <NativeSelect.Field aria-label={t('datasets.filter.column')} value={column} onChange={(e) => setColumn(e.target.value)}>
            {columns.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <NativeSelect.Root size="sm" width="auto">
          <NativeSelect.Field aria-label={t('datasets.filter.operator')} value={op} onChange={(e) => setOp(e.target.value as FilterOp)}>
            {ops.map((o) => (
              <option key={o} value={o}>
                {opLabel(o)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        {takesValue(op) &&
          (kind === 'boolean' ? (
            <NativeSelect.Root size="sm" width="auto">
              <NativeSelect.Field aria-label={t('datasets.filter.value')} value={text} onChange={(e) => setText(e.target.value)}>
                <option value="">{t('datasets.filter.choose')}</option>
                <option value="true">true</option>
                <option value="false">false</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          ) : (
            <Input
              size="sm"
              width="56"
              type={inputType}
              step={inputType === 'number' ? 'any' : undefined}
              aria-label={t('datasets.filter.value')}
              placeholder={op === 'in' ? t('datasets.filter.inPlaceholder') : undefined}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          ))}
        <Button type="submit" size="sm" variant="outline" disabled={takesValue(op) && text.trim() === ''}>
          <LuFilter /> <FormattedMessage id="datasets.filter.add" />
        </Button>
      </Flex>
      {filters.length > 0 && (
        <Flex gap="1.5" wrap="wrap" role="list" aria-label={t('datasets.filter.active')}>
          {filters.map((f, i) => {
            const label = takesValue(f.op) ? `${f.column} ${opLabel(f.op)} ${valueText(f.value)}` : `${f.column} ${opLabel(f.op)}`;
            return (
              <Tag.Root key={`${i}-${label}`} size="md" variant="subtle" colorPalette="brand" role="listitem">
                <Tag.Label>{label}</Tag.Label>
                <Tag.EndElement>
                  {/* The tag's own close trigger: a button sized to the tag, where a CloseButton stood out below it. */}
                  <Tag.CloseTrigger aria-label={t('datasets.filter.remove', { filter: label })} onClick={() => onChange(filters.filter((_, j) => j !== i))} />
                </Tag.EndElement>
              </Tag.Root>
            );
          })}
          <Button size="xs" variant="ghost" onClick={() => onChange([])}>
            <FormattedMessage id="datasets.filter.clear" />
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
