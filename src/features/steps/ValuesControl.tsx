import { Button, CloseButton, Flex, Stack, Tag, Text } from '@chakra-ui/react';
import { useState, type ComponentType } from 'react';
import { LuListPlus } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { useGetColumnValuesQuery, useGetStepDatasetQuery } from '../datasets/datasetsApi';
import { ColumnCombobox, typeWord } from './ColumnCombobox';
import type { ControlProps } from './ParamField';
import { numberOrText } from './paramValues';

type Plain = string | number | boolean;

/** The values a draft's JSON text lists, or null when it is not a list of plain values. */
export function valuesOf(text: unknown): Plain[] | null {
  if (typeof text !== 'string' || !text.trim()) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') ? (parsed as Plain[]) : null;
  } catch {
    return null;
  }
}

/** How many of the column's values are offered; a pivot takes at most 100 new columns. */
const OFFERED = 100;

/**
 * A json param listing values of the column another param names (`values_of`: a pivot's new
 * columns): each value a tag, picked from the input's data with how often it occurs (the newest
 * output of the step it reads), or typed. "Add all" takes every value when there are few enough.
 */
export function ValuesControl({ param, id, value, onChange, references, related, AsText, ...rest }: ControlProps & { AsText: ComponentType<ControlProps> }) {
  const intl = useIntl();
  const t = (key: string, values?: Record<string, string | number>) => intl.formatMessage({ id: key }, values);
  const [text, setText] = useState('');
  const listed = valuesOf(value);
  const column = typeof related === 'string' ? related.trim() : '';
  const field = references?.fields.find((f) => f.name === column && f.input_index === 0);
  const input = useGetStepDatasetQuery({ stepId: field?.from_step_id ?? '', side: 'output' }, { skip: !field });
  const datasetId = input.data?.id;
  const counted = useGetColumnValuesQuery({ datasetId: datasetId ?? '', column, limit: OFFERED }, { skip: !datasetId || !column });
  if (listed === null) return <AsText param={param} id={id} value={value} onChange={onChange} references={references} {...rest} />;

  const numeric = ['integer', 'number', 'decimal'].includes(typeWord(field?.type) ?? '');
  const save = (next: Plain[]) => onChange(JSON.stringify(next));
  const has = (v: Plain) => listed.some((x) => String(x) === String(v));
  const found = (counted.data?.values ?? []).filter((v): v is { value: Plain; count: number } => v.value !== null && typeof v.value !== 'object');
  const offered = found.filter((v) => !has(v.value));
  const add = (typed: string) => {
    const v: Plain = found.find((f) => String(f.value) === typed)?.value ?? (numeric ? numberOrText(typed) : typed);
    if (typed.trim() && !has(v)) save([...listed, v]);
    setText('');
  };
  const all = counted.data && counted.data.distinct <= OFFERED ? offered : [];
  return (
    <Stack gap="2" w="full" data-param-type="values">
      {listed.length > 0 && (
        <Flex wrap="wrap" gap="1.5">
          {listed.map((v) => (
            <Tag.Root key={String(v)} size="md" variant="subtle" colorPalette="brand">
              <Tag.Label>{String(v)}</Tag.Label>
              <Tag.EndElement>
                <CloseButton size="2xs" aria-label={t('params.columns.remove', { name: String(v) })} onClick={() => save(listed.filter((x) => x !== v))} />
              </Tag.EndElement>
            </Tag.Root>
          ))}
        </Flex>
      )}
      <ColumnCombobox
        id={id}
        label={param.label}
        columns={offered.map((v) => ({ name: String(v.value), note: t('params.values.count', { count: v.count }) }))}
        inputValue={text}
        onInputValueChange={setText}
        onPick={add}
        clearOnPick
        onEnterTyped={() => add(text)}
        onBlur={() => add(text)}
        placeholder={t('params.values.placeholder')}
        emptyText={!column ? t('params.values.noColumn') : !datasetId ? t('params.values.noData', { column }) : undefined}
        size="xs"
      />
      <Flex justify="space-between" align="center" gap="2" wrap="wrap">
        {counted.data ? (
          <Text textStyle="xs" color="fg.muted">
            {t('params.values.found', { count: counted.data.distinct, column })}
          </Text>
        ) : (
          <span />
        )}
        {all.length > 0 && (
          <Button size="2xs" variant="outline" onClick={() => save([...listed, ...all.map((v) => v.value)])}>
            <LuListPlus aria-hidden />
            {t('params.values.addAll', { count: all.length })}
          </Button>
        )}
      </Flex>
    </Stack>
  );
}
