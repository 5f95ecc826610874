import { Badge, Box, Button, Field, Flex, HStack, IconButton, Input, NativeSelect, Stack, Switch, Text, Textarea } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LuKeyRound, LuPencil, LuPlus, LuTrash2 } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { VariableOut } from '../../../server/src/modules/variables/variables.schemas';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useCreateVariableMutation, useDeleteVariableMutation, useUpdateVariableMutation } from './variablesApi';
import type { VersionedWrite as Write } from '../workflows/versioning';

type VarType = VariableOut['type'];
const TYPES: VarType[] = ['string', 'number', 'boolean', 'json', 'secret'];
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function valueText(v: VariableOut): string {
  if (v.value === null || v.value === undefined) return '';
  return typeof v.value === 'string' ? v.value : JSON.stringify(v.value);
}

/** Add or change one variable. A secret's value is write-only: left empty, it stays as it was. */
function VariableForm({ initial, onDone, workflowId, write }: { initial: VariableOut | null; onDone: () => void; workflowId: string; write: Write }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [name, setName] = useState(initial?.name ?? '');
  const [type, setType] = useState<VarType>(initial?.type ?? 'string');
  const [value, setValue] = useState(initial && initial.type !== 'secret' ? valueText(initial) : '');
  const [bool, setBool] = useState(initial?.value === true);
  const [description, setDescription] = useState(initial?.description ?? '');
  const [error, setError] = useState<{ name?: string; value?: string }>({});
  const [create, { isLoading: creating }] = useCreateVariableMutation();
  const [update, { isLoading: updating }] = useUpdateVariableMutation();

  const parsed = (): { ok: boolean; value?: unknown } => {
    if (type === 'boolean') return { ok: true, value: bool };
    if (value.trim() === '') return { ok: true, value: undefined };
    if (type === 'number') return Number.isFinite(Number(value)) ? { ok: true, value: Number(value) } : { ok: false };
    if (type === 'json') {
      try {
        return { ok: true, value: JSON.parse(value) };
      } catch {
        return { ok: false };
      }
    }
    return { ok: true, value };
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems: { name?: string; value?: string } = {};
    if (!NAME.test(name)) problems.name = t('variables.error.name');
    const p = parsed();
    if (!p.ok) problems.value = t(type === 'json' ? 'params.error.json' : 'params.error.number');
    setError(problems);
    if (problems.name || problems.value) return;
    const body = { name, type, description, ...(p.value !== undefined ? { value: p.value } : {}) };
    const result = initial
      ? await write((version) => update({ workflowId, variableId: initial.id, version, changes: body }))
      : await write((version) => create({ workflowId, version, variable: body }));
    if ('data' in result) onDone();
  };

  return (
    <Box asChild borderWidth="1px" borderColor="border" rounded="lg" p="3" bg="bg.subtle">
      <form onSubmit={submit} noValidate>
        <Stack gap="3">
          <Flex gap="2">
            <Field.Root invalid={Boolean(error.name)} required flex="1">
              <Field.Label textStyle="xs">{t('variables.name')}</Field.Label>
              <Input size="sm" fontFamily="mono" value={name} onChange={(e) => setName(e.target.value)} autoFocus placeholder="threshold" />
              {error.name && <Field.ErrorText>{error.name}</Field.ErrorText>}
            </Field.Root>
            <Field.Root w="28">
              <Field.Label textStyle="xs">{t('variables.type')}</Field.Label>
              <NativeSelect.Root size="sm">
                <NativeSelect.Field value={type} onChange={(e) => setType(e.target.value as VarType)}>
                  {TYPES.map((ty) => (
                    <option key={ty} value={ty}>
                      {t(`variables.type.${ty}`)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
          </Flex>
          {type === 'boolean' ? (
            <Switch.Root checked={bool} onCheckedChange={(d) => setBool(d.checked)} size="sm" colorPalette="brand">
              <Switch.HiddenInput />
              <Switch.Control />
              <Switch.Label>{t('variables.value')}</Switch.Label>
            </Switch.Root>
          ) : (
            <Field.Root invalid={Boolean(error.value)}>
              <Field.Label textStyle="xs">{t('variables.value')}</Field.Label>
              {type === 'json' ? (
                <Textarea size="sm" fontFamily="mono" rows={3} value={value} onChange={(e) => setValue(e.target.value)} />
              ) : (
                <Input
                  size="sm"
                  type={type === 'secret' ? 'password' : 'text'}
                  autoComplete={type === 'secret' ? 'new-password' : 'off'}
                  inputMode={type === 'number' ? 'decimal' : undefined}
                  value={value}
                  placeholder={type === 'secret' && initial?.has_value ? t('variables.secretKeep') : ''}
                  onChange={(e) => setValue(e.target.value)}
                />
              )}
              {error.value ? (
                <Field.ErrorText>{error.value}</Field.ErrorText>
              ) : type === 'secret' ? (
                <Field.HelperText>{t('variables.secretHelp')}</Field.HelperText>
              ) : null}
            </Field.Root>
          )}
          <Field.Root>
            <Field.Label textStyle="xs">{t('variables.description')}</Field.Label>
            <Input size="sm" value={description} maxLength={2000} onChange={(e) => setDescription(e.target.value)} />
          </Field.Root>
          <HStack justify="flex-end">
            <Button size="xs" variant="ghost" onClick={onDone}>
              {t('common.cancel')}
            </Button>
            <Button size="xs" colorPalette="brand" type="submit" loading={creating || updating}>
              {t(initial ? 'variables.save' : 'variables.add')}
            </Button>
          </HStack>
        </Stack>
      </form>
    </Box>
  );
}

/** The workflow's variables, referenced in params as {{var.NAME}}. Secrets show only "set". */
export function VariablesPanel({ workflowId, variables, write }: { workflowId: string; variables: VariableOut[]; write: Write }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const [editing, setEditing] = useState<VariableOut | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<VariableOut | null>(null);
  const [remove, { isLoading: removing }] = useDeleteVariableMutation();

  return (
    <Stack gap="3">
      <Text textStyle="xs" color="fg.muted">
        {t('variables.hint')}
      </Text>
      {editing === 'new' ? (
        <VariableForm initial={null} workflowId={workflowId} write={write} onDone={() => setEditing(null)} />
      ) : (
        <Button size="sm" variant="outline" onClick={() => setEditing('new')}>
          <LuPlus aria-hidden />
          {t('variables.new')}
        </Button>
      )}
      {variables.length === 0 && editing !== 'new' && (
        <Text textStyle="sm" color="fg.muted" textAlign="center" py="4">
          {t('variables.empty')}
        </Text>
      )}
      <Stack as="ul" listStyleType="none" gap="2" aria-label={t('variables.title')}>
        {variables.map((v) =>
          editing !== 'new' && editing?.id === v.id ? (
            <li key={v.id}>
              <VariableForm initial={v} workflowId={workflowId} write={write} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <Flex as="li" key={v.id} gap="2" align="center" borderWidth="1px" borderColor="border.muted" rounded="lg" px="3" py="2">
              <Box flex="1" minW="0">
                <HStack gap="2">
                  <Text fontFamily="mono" textStyle="sm" fontWeight="medium" truncate>
                    {v.name}
                  </Text>
                  <Badge size="xs" variant="subtle">
                    {t(`variables.type.${v.type}`)}
                  </Badge>
                </HStack>
                {v.type === 'secret' ? (
                  <Badge size="xs" colorPalette={v.has_value ? 'green' : 'gray'} variant="outline" mt="1">
                    <LuKeyRound aria-hidden />
                    {t(v.has_value ? 'variables.secretSet' : 'variables.secretNotSet')}
                  </Badge>
                ) : (
                  <Text textStyle="xs" color="fg.muted" fontFamily="mono" truncate>
                    {valueText(v) || '—'}
                  </Text>
                )}
              </Box>
              <IconButton size="xs" variant="ghost" aria-label={t('variables.editNamed', { name: v.name })} onClick={() => setEditing(v)}>
                <LuPencil />
              </IconButton>
              <IconButton size="xs" variant="ghost" colorPalette="red" aria-label={t('variables.deleteNamed', { name: v.name })} onClick={() => setToDelete(v)}>
                <LuTrash2 />
              </IconButton>
            </Flex>
          ),
        )}
      </Stack>
      <ConfirmDialog
        open={toDelete !== null}
        title={t('variables.deleteConfirm.title')}
        body={t('variables.deleteConfirm.body', { name: toDelete?.name ?? '' })}
        confirmLabel={t('variables.delete')}
        destructive
        loading={removing}
        onConfirm={async () => {
          if (!toDelete) return;
          const variableId = toDelete.id;
          await write((version) => remove({ workflowId, variableId, version }));
          setToDelete(null);
        }}
        onCancel={() => setToDelete(null)}
      />
    </Stack>
  );
}
