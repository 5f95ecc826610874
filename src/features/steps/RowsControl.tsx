import { Box, Button, CloseButton, Flex, HStack, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useState, type ComponentType } from 'react';
import { LuBraces, LuPlus, LuRows3 } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { ParamField } from '../../../server/src/engine/step-types/step-type';
import type { ParamOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import type { ControlProps } from './ParamField';
import { OptionItems } from './OptionItems';
import { ColumnCombobox, typeWord, type ColumnChoice } from './ColumnCombobox';
import { columnsFor } from './columnWarnings';
import { numberOrText } from './paramValues';

type Row = Record<string, string>;
type RowsParam = Pick<ParamOut, 'fields' | 'shape'>;

const isPlain = (v: unknown) => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * The rows a json param's draft text holds, or null when it is not rows of plain values: a list of
 * objects, or for a `map` param (a rename) one object, each key and its value a row.
 */
export function rowsOf(text: unknown, param: RowsParam): Row[] | null {
  if (typeof text !== 'string' || !text.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (param.shape === 'map') {
    const [key, value] = param.fields ?? [];
    if (!key || !value || !parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const entries = Object.entries(parsed as Record<string, unknown>);
    if (entries.some(([, v]) => typeof v !== 'string')) return null;
    return entries.map(([k, v]) => ({ [key.name]: k, [value.name]: v as string }));
  }
  if (!Array.isArray(parsed)) return null;
  const rows: Row[] = [];
  for (const item of parsed) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return null;
    const values = Object.entries(item as Record<string, unknown>);
    if (!values.every(([, v]) => isPlain(v))) return null;
    rows.push(Object.fromEntries(values.filter(([, v]) => v !== null).map(([k, v]) => [k, String(v)])));
  }
  return rows;
}

/**
 * What a row's field is in JSON: a `number` field a number; a `value` field what the column it
 * goes into holds (a number for a number column, true or false for a boolean one, else text).
 */
function jsonValue(field: ParamField, row: Row, columns: ColumnChoice[]): unknown {
  const text = row[field.name];
  if (field.kind === 'number') return numberOrText(text);
  if (field.kind !== 'value' || !field.type_from) return text;
  const kind = typeWord(columns.find((c) => c.name === row[field.type_from!])?.type);
  if (kind === 'integer' || kind === 'number' || kind === 'decimal') return numberOrText(text);
  if (kind === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** The draft text of these rows: each object with its fields in order, an empty optional field left out. */
function textOf(rows: Row[], param: RowsParam, columns: ColumnChoice[]): string {
  const fields = param.fields ?? [];
  if (param.shape === 'map') {
    const [key, value] = fields;
    // A row whose column is not chosen yet renames nothing.
    const named = rows.filter((row) => row[key.name]);
    return JSON.stringify(Object.fromEntries(named.map((row) => [row[key.name], row[value.name] ?? ''])), null, 2);
  }
  const objects = rows.map((row) =>
    Object.fromEntries(fields.filter((f) => row[f.name] !== undefined && (f.required || row[f.name] !== '')).map((f) => [f.name, jsonValue(f, row, columns)])),
  );
  return JSON.stringify(objects, null, 2);
}

/** The first key (a rename's column) two rows name: only the last of them is kept. */
function repeatedKey(rows: Row[], key: string | undefined): string | null {
  if (!key) return null;
  const seen = new Set<string>();
  for (const row of rows) {
    const name = row[key] ?? '';
    if (name && seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}

/**
 * A json param whose value is a list of objects of known fields (ParamSpec.fields: an
 * aggregation's column, function and result name) as rows of pickers instead of JSON text: a column
 * chosen from the input's columns, a function from its list, a name typed. "Edit as JSON" shows
 * the text itself, which is also what is shown when the text is not such a list.
 */
export function RowsControl({ param, id, value, onChange, references, invalid, AsText }: ControlProps & { AsText: ComponentType<ControlProps> }) {
  const intl = useIntl();
  const t = (key: string, values?: Record<string, string | number>) => intl.formatMessage({ id: key }, values);
  const [showText, setShowText] = useState(false);
  // The rows as edited, kept while the text is still theirs: a rename's object cannot hold a second
  // blank row, or two rows of one column, so reading them back from the text would drop a row the
  // moment it is added or while its column is being typed.
  const [held, setHeld] = useState<{ text: string; rows: Row[] } | null>(null);
  const fields = param.fields ?? [];
  const rows = held && held.text === value ? held.rows : rowsOf(value, param);
  const columns = columnsFor(param, references);
  const change = (next: Row[]) => {
    const text = textOf(next, param, columns);
    setHeld({ text, rows: next });
    onChange(text);
  };
  const twice = param.shape === 'map' ? repeatedKey(rows ?? [], fields[0]?.name) : null;
  const toggle = (
    <Button size="2xs" variant="ghost" colorPalette="brand" onClick={() => setShowText((s) => !s)} disabled={rows === null}>
      {showText ? <LuRows3 aria-hidden /> : <LuBraces aria-hidden />}
      {t(showText ? 'params.rows.asRows' : 'params.rows.asJson')}
    </Button>
  );
  if (showText || rows === null) {
    return (
      <Stack gap="1" w="full">
        {rows === null ? (
          <Text textStyle="xs" color="fg.muted">
            {t('params.rows.notRows')}
          </Text>
        ) : (
          <Flex justify="flex-end">{toggle}</Flex>
        )}
        <AsText param={param} id={id} value={value} onChange={onChange} references={references} invalid={invalid} />
      </Stack>
    );
  }
  const blank = Object.fromEntries(fields.map((f) => [f.name, f.kind === 'enum' ? (f.options?.[0] ?? '') : '']));
  return (
    <Stack gap="2" w="full" data-param-type="rows" id={id}>
      {rows.map((row, index) => (
        <HStack key={index} gap="1.5" align="center" role="group" aria-label={t('params.rows.row', { number: index + 1 })}>
          {fields.map((field) => {
            const label = `${field.label} ${index + 1}`;
            const set = (v: string) => change(rows.map((r, i) => (i === index ? { ...r, [field.name]: v } : r)));
            if (field.kind === 'enum')
              return (
                <NativeSelect.Root key={field.name} size="sm" flex="1" minW="0">
                  <NativeSelect.Field aria-label={label} value={row[field.name] ?? ''} onChange={(e) => set(e.target.value)}>
                    <OptionItems options={field.options ?? []} />
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              );
            if (field.kind === 'column')
              return (
                <Box key={field.name} flex="1" minW="0">
                  <ColumnCombobox
                    label={label}
                    columns={[...(field.also ?? []).map((name) => ({ name })), ...columns]}
                    inputValue={row[field.name] ?? ''}
                    onInputValueChange={set}
                    onPick={set}
                    placeholder={field.label}
                  />
                </Box>
              );
            return (
              <Input
                key={field.name}
                size="sm"
                flex="1"
                minW="0"
                aria-label={label}
                placeholder={field.label}
                value={row[field.name] ?? ''}
                inputMode={field.kind === 'number' ? 'decimal' : undefined}
                autoComplete="off"
                onChange={(e) => set(e.target.value)}
              />
            );
          })}
          <CloseButton size="2xs" aria-label={t('params.rows.remove', { number: index + 1 })} onClick={() => change(rows.filter((_, i) => i !== index))} />
        </HStack>
      ))}
      {twice !== null && (
        <Text textStyle="xs" color="fg.warning" role="status">
          {t('params.rows.twice', { column: twice })}
        </Text>
      )}
      <Flex justify="space-between" align="center">
        <Button size="xs" variant="outline" onClick={() => change([...rows, blank])}>
          <LuPlus aria-hidden />
          {t('params.rows.add')}
        </Button>
        {toggle}
      </Flex>
    </Stack>
  );
}
