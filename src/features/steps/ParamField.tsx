import { Box, Button, CloseButton, Field, Flex, HStack, IconButton, Input, NativeSelect, Switch, Tag, Text, Textarea } from '@chakra-ui/react';
import { memo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { ParamOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import type { VariableFields } from '../variables/variablesApi';
import { LuArrowDown, LuArrowUp, LuArrowUpDown, LuTriangleAlert } from 'react-icons/lu';
import { columnsFor, unknownColumnIn, withSuggestion, type UnknownColumn } from './columnWarnings';
import { ColumnCombobox } from './ColumnCombobox';
import { columnOf, directionOf, nextDirection, type SortKey } from './sortKeys';
import { InsertReference } from './InsertReference';
import { OptionItems } from './OptionItems';
import { PickerControl } from './PickerControl';
import { RowsControl } from './RowsControl';
import { ValuesControl } from './ValuesControl';
import { isPickedType, type PickedType } from './pickerSources';

// One control per param type, chosen from the step type's param schema (ParamType): the form is
// generated, never written per step type.

export interface ControlProps {
  param: ParamOut;
  id: string;
  value: unknown;
  invalid: boolean;
  onChange: (value: unknown) => void;
  references: VariableFields | undefined;
  /** The draft of the param `param.values_of` names (a pivot's column to spread), if any. */
  related?: unknown;
}

/** How each text param's box looks: prose (a prompt) wraps and is spell-checked; a SQL
 *  expression is a few monospace lines; code is a monospace editor that keeps its own line breaks. */
const textLooks = {
  template: { rows: 5, mono: false, wrap: 'soft', textStyle: 'sm' },
  expression: { rows: 3, mono: true, wrap: 'soft', textStyle: 'sm' },
  code: { rows: 12, mono: true, wrap: 'off', textStyle: 'xs' },
} as const;

function TextWithReferences({ param, id, value, invalid, onChange, references }: ControlProps) {
  const look = textLooks[param.type as keyof typeof textLooks] ?? textLooks.template;
  const ref = useRef<HTMLTextAreaElement>(null);
  const text = String(value ?? '');
  const insert = (snippet: string) => {
    if (!snippet) return;
    const el = ref.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    onChange(text.slice(0, start) + snippet + text.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + snippet.length, start + snippet.length);
    });
  };
  return (
    <Box w="full">
      <Flex justify="flex-end" mt="-7" mb="1">
        <InsertReference references={references} onInsert={insert} />
      </Flex>
      <Textarea
        ref={ref}
        id={id}
        value={text}
        rows={look.rows}
        fontFamily={look.mono ? 'mono' : undefined}
        textStyle={look.textStyle}
        wrap={look.wrap}
        whiteSpace={look.wrap === 'off' ? 'pre' : undefined}
        overflowX={look.wrap === 'off' ? 'auto' : undefined}
        aria-invalid={invalid || undefined}
        maxLength={param.max_length}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={!look.mono}
        autoCapitalize={look.mono ? 'off' : undefined}
        autoCorrect={look.mono ? 'off' : undefined}
        data-param-type={param.type}
      />
    </Box>
  );
}

function StringControl({ param, id, value, onChange }: ControlProps) {
  return (
    <Input
      id={id}
      value={String(value ?? '')}
      maxLength={param.max_length}
      onChange={(e) => onChange(e.target.value)}
      data-param-type={param.type}
      autoComplete="off"
    />
  );
}

/** One column: picked from the input's columns, or typed. */
function ColumnControl({ param, id, value, onChange, references }: ControlProps) {
  return (
    <Box w="full" data-param-type="column">
      <ColumnCombobox
        id={id}
        label={param.label}
        columns={columnsFor(param, references)}
        inputValue={String(value ?? '')}
        onInputValueChange={onChange}
        onPick={onChange}
      />
    </Box>
  );
}

function NumberControl({ param, id, value, onChange }: ControlProps) {
  return (
    <Input
      id={id}
      inputMode={param.integer ? 'numeric' : 'decimal'}
      value={String(value ?? '')}
      onChange={(e) => onChange(e.target.value)}
      aria-valuemin={param.min}
      aria-valuemax={param.max}
      data-param-type="number"
      autoComplete="off"
    />
  );
}

function SecretControl({ id, value, onChange }: ControlProps) {
  return (
    <Input
      id={id}
      type="password"
      autoComplete="new-password"
      value={String(value ?? '')}
      onChange={(e) => onChange(e.target.value)}
      data-param-type="secret"
    />
  );
}

function EnumControl({ param, id, value, onChange }: ControlProps) {
  const intl = useIntl();
  return (
    <NativeSelect.Root>
      <NativeSelect.Field id={id} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} data-param-type="enum">
        {!param.required || value === '' ? <option value="">{intl.formatMessage({ id: 'params.choose' })}</option> : null}
        <OptionItems options={param.options ?? []} />
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

function JsonControl({ id, value, invalid, onChange }: ControlProps) {
  return (
    <Textarea
      id={id}
      value={String(value ?? '')}
      rows={5}
      fontFamily="mono"
      textStyle="xs"
      aria-invalid={invalid || undefined}
      onChange={(e) => onChange(e.target.value)}
      spellCheck={false}
      data-param-type="json"
    />
  );
}

/**
 * Several column names: picked from the input's columns, or typed and added with Enter or a comma;
 * removed with their ×. For sort keys each also has its direction, changed by its arrow:
 * the step's default, then ascending, then descending (sortKeys.ts).
 */
function ColumnsControl({ param, id, value, onChange, references }: ControlProps) {
  const intl = useIntl();
  const [text, setText] = useState('');
  const sorting = param.type === 'sort_keys';
  const items = Array.isArray(value) ? (value as SortKey[]) : [];
  const names = items.map(columnOf);
  const add = () => {
    const typed = text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (typed.length) onChange([...items, ...typed.filter((n, i) => !names.includes(n) && typed.indexOf(n) === i)]);
    setText('');
  };
  return (
    <Flex wrap="wrap" gap="1.5" align="center" w="full" data-param-type={param.type}>
      {items.map((item) => {
        const name = columnOf(item);
        const direction = directionOf(item);
        return (
          <Tag.Root key={name} size="md" variant="subtle" colorPalette="brand">
            <Tag.Label>{name}</Tag.Label>
            <Tag.EndElement>
              {sorting && (
                <IconButton
                  size="2xs"
                  variant="ghost"
                  minW="5"
                  h="5"
                  aria-label={intl.formatMessage({ id: `params.sortKeys.${direction}` }, { name })}
                  title={intl.formatMessage({ id: `params.sortKeys.${direction}` }, { name })}
                  data-direction={direction}
                  onClick={() => onChange(items.map((i) => (columnOf(i) === name ? nextDirection(i) : i)))}
                >
                  {direction === 'ascending' ? <LuArrowUp /> : direction === 'descending' ? <LuArrowDown /> : <LuArrowUpDown />}
                </IconButton>
              )}
              <CloseButton
                size="2xs"
                aria-label={intl.formatMessage({ id: 'params.columns.remove' }, { name })}
                onClick={() => onChange(items.filter((i) => columnOf(i) !== name))}
              />
            </Tag.EndElement>
          </Tag.Root>
        );
      })}
      <Box flex="1" minW="40">
        <ColumnCombobox
          id={id}
          label={param.label}
          columns={columnsFor(param, references).filter((c) => !names.includes(c.name))}
          inputValue={text}
          onInputValueChange={setText}
          onPick={(name) => {
            if (!names.includes(name)) onChange([...items, name]);
            setText('');
          }}
          clearOnPick
          onEnterTyped={add}
          onBackspaceEmpty={() => onChange(items.slice(0, -1))}
          onBlur={add}
          placeholder={intl.formatMessage({ id: 'params.columns.placeholder' })}
          size="xs"
        />
      </Box>
    </Flex>
  );
}

/**
 * JSON text; rows of pickers when the param says what fields its objects have (RowsControl); the
 * values of a column, offered from the data, when it lists them (ValuesControl).
 */
function JsonParamControl(props: ControlProps) {
  if (props.param.values_of) return <ValuesControl {...props} AsText={JsonControl} />;
  return props.param.fields?.length ? <RowsControl {...props} AsText={JsonControl} /> : <JsonControl {...props} />;
}

/** file, folder and dataset params are chosen in a picker (PickerControl, pickerSources.tsx). */
const controls: Record<Exclude<ParamOut['type'], PickedType>, ComponentType<ControlProps>> = {
  string: StringControl,
  column: ColumnControl,
  number: NumberControl,
  boolean: () => null,
  enum: EnumControl,
  columns: ColumnsControl,
  sort_keys: ColumnsControl,
  expression: TextWithReferences,
  code: TextWithReferences,
  template: TextWithReferences,
  secret: SecretControl,
  json: JsonParamControl,
};

/**
 * Under a param that names a column the input does not have: "did you mean …?", with the fix one
 * click away where the value is just the name. A warning only: the name may be one a change further
 * up will add.
 */
function UnknownColumnWarning({ found, onFix }: { found: UnknownColumn; onFix?: () => void }) {
  const intl = useIntl();
  return (
    <HStack gap="2" wrap="wrap" mt="1.5" textStyle="sm" color="fg.warning" data-testid="unknown-column">
      <LuTriangleAlert aria-hidden />
      <Text as="span">
        {found.suggestion
          ? intl.formatMessage({ id: 'params.warning.didYouMean' }, { column: found.column, suggestion: found.suggestion })
          : intl.formatMessage({ id: 'params.warning.unknownColumn' }, { column: found.column })}
      </Text>
      {found.suggestion && onFix && (
        <Button size="2xs" variant="outline" colorPalette="orange" onClick={onFix}>
          {intl.formatMessage({ id: 'params.warning.useSuggestion' }, { suggestion: found.suggestion })}
        </Button>
      )}
    </HStack>
  );
}

interface ParamFieldProps {
  param: ParamOut;
  value: unknown;
  error: string | null;
  references: VariableFields | undefined;
  /** See ControlProps.related. */
  related?: unknown;
  onChange: (name: string, value: unknown) => void;
}

/** Label (with the required mark), the control for the param's type, then its error or help. */
export const ParamField = memo(function ParamField({ param, value, error, references, related, onChange }: ParamFieldProps) {
  const intl = useIntl();
  const id = `param-${param.name}`;
  const change = (v: unknown) => onChange(param.name, v);
  const range =
    param.type === 'number' && (param.min !== undefined || param.max !== undefined)
      ? param.min !== undefined && param.max !== undefined
        ? intl.formatMessage({ id: 'params.range' }, { min: param.min, max: param.max })
        : param.min !== undefined
          ? intl.formatMessage({ id: 'params.atLeast' }, { min: param.min })
          : intl.formatMessage({ id: 'params.atMost' }, { max: param.max ?? 0 })
      : null;
  const help = [param.help, range].filter(Boolean).join(' ');

  if (param.type === 'boolean') {
    return (
      <Field.Root invalid={Boolean(error)} data-param={param.name}>
        <Switch.Root checked={value === true} onCheckedChange={(d) => change(d.checked)} colorPalette="brand" size="sm">
          <Switch.HiddenInput id={id} data-param-type="boolean" />
          <Switch.Control />
          <Switch.Label fontWeight="medium">{param.label}</Switch.Label>
        </Switch.Root>
        {error ? <Field.ErrorText>{error}</Field.ErrorText> : help ? <Field.HelperText>{help}</Field.HelperText> : null}
      </Field.Root>
    );
  }

  const unknown = error ? null : unknownColumnIn(param, value, references);
  const field = (control: ReactNode) => (
    <Field.Root invalid={Boolean(error)} required={param.required} data-param={param.name}>
      <HStack w="full" justify="space-between">
        <Field.Label htmlFor={id}>
          {param.label}
          <Field.RequiredIndicator />
        </Field.Label>
      </HStack>
      {control}
      {unknown && (
        <UnknownColumnWarning found={unknown} onFix={param.type === 'expression' ? undefined : () => change(withSuggestion(param, value, unknown))} />
      )}
      {error ? <Field.ErrorText>{error}</Field.ErrorText> : help ? <Field.HelperText>{help}</Field.HelperText> : null}
    </Field.Root>
  );
  const controlProps: ControlProps = { param, id, value, invalid: Boolean(error), onChange: change, references, related };
  // A picker puts its dialog beside the field, not inside it: the field's context (invalid,
  // required, ids) would otherwise reach the dialog's own inputs through the portal.
  if (isPickedType(param.type)) return <PickerControl {...controlProps} type={param.type} field={field} />;
  const Control = controls[param.type] ?? StringControl;
  return field(<Control {...controlProps} />);
});
