import { Alert, Button, Flex, HStack, Stack, Text } from '@chakra-ui/react';
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { LuCheck, LuPencilLine } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { ParamOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import type { VariableFields } from '../variables/variablesApi';
import { ParamField } from './ParamField';
import { checkDraft } from './checkDraft';
import { fromDraft, missingRequired, sameValue, toDraft, type Draft } from './paramValues';

interface ParamFormProps {
  params: ParamOut[];
  /** The step's saved values. */
  values: Record<string, unknown>;
  /** The step's draft: the params the user changed, as the controls hold them (stepDrafts.ts). */
  edits: Draft;
  /** The draft differs from the saved step (its name included). */
  unsaved: boolean;
  references: VariableFields | undefined;
  /** Errors the server gave per param (loc [body, param_inputs, NAME]). */
  serverErrors: Record<string, string>;
  saving: boolean;
  onEdit: (param: ParamOut, value: unknown) => void;
  /** Only the params that changed (maybe none, when only the name did); null clears one. */
  onSave: (changes: Record<string, unknown>) => void;
  onDiscard: () => void;
}

/**
 * A step's settings form, generated from its type's param schema. Checks each value as the user
 * types (required, numbers and bounds, JSON) and sends only what changed. What is typed is the
 * step's draft, held by the parent, so it survives this form going away (another step opened).
 */
export function ParamForm({ params, values, edits, unsaved, references, serverErrors, saving, onEdit, onSave, onDiscard }: ParamFormProps) {
  const intl = useIntl();
  const initial = useMemo(() => Object.fromEntries(params.map((p) => [p.name, toDraft(p, values[p.name])])) as Draft, [params, values]);
  const draft = useMemo(() => ({ ...initial, ...edits }), [initial, edits]);
  const byName = useMemo(() => new Map(params.map((p) => [p.name, p])), [params]);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const t = useCallback((id: string, v?: Record<string, string | number>) => intl.formatMessage({ id }, v), [intl]);

  const onChange = useCallback(
    (name: string, value: unknown) => {
      setTouched((d) => (d[name] ? d : { ...d, [name]: true }));
      const param = byName.get(name);
      if (param) onEdit(param, value);
    },
    [byName, onEdit],
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

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.values(problems).some(Boolean) || !unsaved) return;
    onSave(changes);
  };

  if (params.length === 0 && !unsaved) {
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
              {intl.formatMessage(
                { id: 'params.missing' },
                {
                  params: intl.formatList(
                    missing.map((p) => p.label),
                    { type: 'conjunction' },
                  ),
                },
              )}
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
            related={p.values_of ? draft[p.values_of] : undefined}
            onChange={onChange}
          />
        ))}
        {params.length === 0 && (
          <Text color="fg.muted" textStyle="sm">
            {t('params.none')}
          </Text>
        )}
        {/* The status takes a line of its own above the buttons when there is something to say. */}
        <Flex
          wrap="wrap"
          justify="flex-end"
          align="center"
          columnGap="2"
          rowGap="1.5"
          position="sticky"
          bottom="0"
          bg="bg.panel"
          py="3"
          borderTopWidth="1px"
          borderColor="border.muted"
        >
          <HStack role="status" flexBasis={unsaved ? 'full' : '0'} gap="1.5" textStyle="xs" fontWeight="medium" color="blue.fg">
            {unsaved && (
              <>
                <LuPencilLine aria-hidden />
                {t('params.unsaved')}
              </>
            )}
          </HStack>
          <Button
            variant="ghost"
            size="sm"
            disabled={!unsaved || saving}
            onClick={() => {
              setTouched({});
              setSubmitted(false);
              onDiscard();
            }}
          >
            {t('params.reset')}
          </Button>
          <Button type="submit" size="sm" colorPalette="brand" loading={saving} disabled={!unsaved}>
            <LuCheck aria-hidden />
            {t('params.save')}
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}
