import { Alert, Badge, Box, Button, Field, Flex, Heading, HStack, Icon, IconButton, Input, Stack, Text } from '@chakra-ui/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { LuCopy, LuTrash2, LuX } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { ParamOut, StepInfoOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { StepAgentBox } from '../agents/StepAgentBox';
import { useGetVariableFieldsQuery } from '../variables/variablesApi';
import { lookOf } from '../workflows/editor/categories';
import { ParamForm } from './ParamForm';
import { paramErrorsFrom } from './paramValues';
import { categoryLabel } from './optionLabel';
import { draftDiscarded, draftRebased, draftSaved, draftStatus, nameEdited, paramEdited, selectStepDraft } from './stepDrafts';
import { usePatchStepParamsMutation, useUpdateStepMutation } from './stepsApi';

type Write = <T>(send: (version: number | undefined) => PromiseLike<T>) => Promise<T>;

interface StepInspectorProps {
  workflowId: string;
  step: StepOut;
  info: StepInfoOut | undefined;
  write: Write;
  onClose: () => void;
  onDelete: (id: string) => void;
  onDuplicate: (id: string) => void;
}

const NO_EDITS: Record<string, unknown> = {};

/**
 * The selected step: its name, what its type does, and its settings form. What the user types is
 * the step's draft (stepDrafts.ts), kept until saved or discarded, whatever happens meanwhile.
 */
export function StepInspector({ workflowId, step, info, write, onClose, onDelete, onDuplicate }: StepInspectorProps) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const dispatch = useAppDispatch();
  const look = lookOf(info?.category);
  const [patchParams, { isLoading: saving }] = usePatchStepParamsMutation();
  const [updateStep] = useUpdateStepMutation();
  const { data: references } = useGetVariableFieldsQuery({ workflowId, stepId: step.id });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const draft = useAppSelector((state) => selectStepDraft(state, workflowId, step.id));
  const edits = draft?.params ?? NO_EDITS;
  const name = draft?.name ?? step.name;
  const { unsaved, changedUnderneath } = draftStatus(draft, step, info?.params ?? []);

  // A draft the saved step has caught up with (saved in another tab, or a save's answer arriving
  // first) holds nothing unsaved any more: let it go, so the canvas stops marking the step.
  useEffect(() => {
    if (draft && info && !unsaved) dispatch(draftDiscarded({ workflowId, stepId: step.id }));
  }, [dispatch, draft, info, step.id, unsaved, workflowId]);

  // Leaving the name field saves the name, and so may Save just after it: send it once.
  const renaming = useRef<string | null>(null);
  const rename = async () => {
    if (draft?.name === undefined) return;
    const typed = draft.name;
    const next = typed.trim();
    if (!next || next === step.name) return void dispatch(nameEdited(workflowId, step, step.name));
    if (renaming.current === next) return;
    renaming.current = next;
    const result = await write((version) => updateStep({ workflowId, stepId: step.id, version, changes: { name: next } }));
    renaming.current = null;
    if ('data' in result) dispatch(draftSaved({ workflowId, stepId: step.id, params: {}, values: {}, name: typed }));
  };

  const save = async (changes: Record<string, unknown>) => {
    setServerErrors({});
    // What was typed by the time the answer comes stays a draft; what was sent does not.
    const sent = { ...edits };
    if (Object.keys(changes).length > 0) {
      const result = await write((version) => patchParams({ workflowId, stepId: step.id, version, params: changes }));
      if ('error' in result) return setServerErrors(paramErrorsFrom(result.error));
    }
    dispatch(draftSaved({ workflowId, stepId: step.id, params: sent, values: changes }));
    await rename();
  };

  const onEdit = useCallback(
    (param: ParamOut, value: unknown) => {
      setServerErrors((e) => (e[param.name] ? { ...e, [param.name]: '' } : e));
      dispatch(paramEdited(workflowId, step, param, value));
    },
    [dispatch, step, workflowId],
  );

  const discard = () => {
    setServerErrors({});
    dispatch(draftDiscarded({ workflowId, stepId: step.id }));
  };

  const cleanErrors = Object.fromEntries(Object.entries(serverErrors).filter(([, v]) => v));

  return (
    <Stack gap="5" colorPalette={look.palette}>
      <Flex gap="3" align="flex-start">
        <Flex boxSize="10" flexShrink="0" rounded="xl" align="center" justify="center" bg="colorPalette.subtle" color="colorPalette.fg">
          <Icon as={look.icon} boxSize="5" aria-hidden />
        </Flex>
        <Box flex="1" minW="0">
          <Heading as="h2" size="sm" truncate>
            {info?.name ?? step.step_type}
          </Heading>
          {info && (
            <Badge size="sm" variant="subtle" mt="1">
              {categoryLabel(intl, info.category)}
            </Badge>
          )}
        </Box>
        <IconButton size="xs" variant="ghost" aria-label={t('editor.inspector.close')} onClick={onClose}>
          <LuX />
        </IconButton>
      </Flex>
      {info && (
        <Text textStyle="sm" color="fg.muted">
          {info.description}
        </Text>
      )}
      <Field.Root>
        <Field.Label>{t('editor.inspector.stepName')}</Field.Label>
        <Input
          size="sm"
          value={name}
          maxLength={200}
          onChange={(e) => dispatch(nameEdited(workflowId, step, e.target.value))}
          onBlur={() => void rename()}
          onKeyDown={(e) => {
            if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
            if (e.key === 'Escape') dispatch(nameEdited(workflowId, step, step.name));
          }}
        />
      </Field.Root>
      <HStack gap="2">
        <Button size="xs" variant="outline" onClick={() => onDuplicate(step.id)}>
          <LuCopy aria-hidden />
          {t('editor.inspector.duplicate')}
        </Button>
        <Button size="xs" variant="outline" colorPalette="red" onClick={() => onDelete(step.id)}>
          <LuTrash2 aria-hidden />
          {t('editor.inspector.delete')}
        </Button>
      </HStack>
      <Box borderTopWidth="1px" borderColor="border.muted" pt="4">
        <Heading as="h3" size="xs" mb="4" textTransform="uppercase" letterSpacing="wider" color="fg.muted">
          {t('editor.inspector.settings')}
        </Heading>
        {changedUnderneath && (
          <Alert.Root status="warning" size="sm" mb="4" data-testid="draft-changed-underneath">
            <Alert.Indicator />
            <Alert.Content gap="2">
              <Alert.Title>{t('editor.inspector.changedUnderneath')}</Alert.Title>
              <Alert.Description>{t('editor.inspector.changedUnderneathHint')}</Alert.Description>
              <HStack gap="2" wrap="wrap">
                <Button size="xs" variant="solid" colorPalette="orange" onClick={() => dispatch(draftRebased(workflowId, step))}>
                  {t('editor.inspector.keepDraft')}
                </Button>
                <Button size="xs" variant="outline" onClick={discard}>
                  {t('editor.inspector.useSaved')}
                </Button>
              </HStack>
            </Alert.Content>
          </Alert.Root>
        )}
        {info ? (
          <ParamForm
            key={step.id}
            params={info.params}
            values={step.param_inputs}
            edits={edits}
            unsaved={unsaved}
            references={references}
            serverErrors={cleanErrors}
            saving={saving}
            onEdit={onEdit}
            onSave={(changes) => void save(changes)}
            onDiscard={discard}
          />
        ) : (
          <Text color="fg.muted" textStyle="sm">
            {t('editor.inspector.unknownType')}
          </Text>
        )}
      </Box>
      {info && <StepAgentBox workflowId={workflowId} stepId={step.id} />}
    </Stack>
  );
}
