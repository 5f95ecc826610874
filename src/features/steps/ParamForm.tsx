import { Alert, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { LuCheck } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { ParamOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import type { VariableFields } from '../variables/variablesApi';
import { ParamField } from './ParamField';
import { checkDraft, fromDraft, missingRequired, sameValue, toDraft, type Draft } from './paramValues';

interface ParamFormProps {
  params: ParamOut[];
  values: Record<string, unknown>;
  references: VariableFields | undefined;
  /** Errors the server gave per param (loc [body, param_inputs, NAME]). */
  serverErrors: Record<string, string>;
  saving: boolean;
  /** Only the params that changed; null clears one. */
  onSave: (changes: Record<string, unknown>) => void;
  onEdit?: (name: string) => void;
}

/**
 * A step's settings form, generated from its type's param schema. Checks each value as the user
 * types (required, numbers and bounds, JSON) and sends only what changed. The parent remounts it
 * (key) when another step is selected or the step changes on the server.
 */
export function ParamForm({ params, values, references, serverErrors, saving, onSave, onEdit }: ParamFormProps) {
  const intl = useIntl();
  const initial = useMemo(() => Object.fromEntries(params.map((p) => [p.name, toDraft(p, values[p.name])])) as Draft, [params, values]);
  const [draft, setDraft] = useState<Draft>(initial);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const t = useCallback((id: string, v?: Record<string, string | number>) => intl.formatMessage({ id }, v), [intl]);

  const onChange = useCallback(
    (name: string, value: unknown) => {
      setDraft((d) => ({ ...d, [name]: value }));
      setTouched((d) => (d[name] ? d : { ...d, [name]: true }));
      onEdit?.(name);
    },
    [onEdit],
  );

  const problems = Object.fromEntries(params.map((p) => [p.name, checkDraft(p, draft[p.name], t)]));
  // Required params the saved step lacks are marked from the start, not only once touched: the
  // user came here because the canvas said this step needs settings.
  const missing = useMemo(() => missingRequired(params, values), [params, values]);
  const needsValue = new Set(missing.map((p) => p.name));
  const changes: Record<string, unknown> = {};
  for (const p of params) {
    const next = fromDraft(p, draft[p.name]);
    const before = values[p.name] === undefined ? null : values[p.name];
    if (!sameValue(next, before) && !(next === null && values[p.name] === undefined)) changes[p.name] = next;
  }
  const dirty = Object.keys(changes).length > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.values(problems).some(Boolean) || !dirty) return;
    onSave(changes);
  };

  if (params.length === 0) {
    return (
      <Text color="fg.muted" textStyle="sm">
        {t('params.none')}
      </Text>
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t('params.formLabel')}>
      <Stack gap="5">
        {missing.length > 0 && (
          <Alert.Root status="warning" size="sm" data-testid="params-missing">
            <Alert.Indicator />
            <Alert.Title>
              {intl.formatMessage({ id: 'params.missing' }, { params: intl.formatList(missing.map((p) => p.label), { type: 'conjunction' }) })}
            </Alert.Title>
          </Alert.Root>
        )}
        {params.map((p) => (
          <ParamField
            key={p.name}
            param={p}
            value={draft[p.name]}
            // A server error stays until the field is edited; our own check shows once touched.
            error={serverErrors[p.name] ?? (touched[p.name] || submitted || needsValue.has(p.name) ? problems[p.name] : null)}
            references={references}
            onChange={onChange}
          />
        ))}
        <HStack justify="flex-end" gap="2" position="sticky" bottom="0" bg="bg.panel" py="3" borderTopWidth="1px" borderColor="border.muted">
          <Button
            variant="ghost"
            size="sm"
            disabled={!dirty || saving}
            onClick={() => {
              setDraft(initial);
              setTouched({});
              setSubmitted(false);
            }}
          >
            {t('params.reset')}
          </Button>
          <Button type="submit" size="sm" colorPalette="brand" loading={saving} disabled={!dirty}>
            <LuCheck aria-hidden />
            {t('params.save')}
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
