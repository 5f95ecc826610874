import { Badge, Box, Button, Field, Flex, Heading, HStack, Icon, IconButton, Input, Stack, Text } from '@chakra-ui/react';
import { useCallback, useState } from 'react';
import { LuCopy, LuTrash2, LuX } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { StepInfoOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { useGetVariableFieldsQuery } from '../variables/variablesApi';
import { lookOf } from '../workflows/editor/categories';
import { ParamForm } from './ParamForm';
import { paramErrorsFrom } from './paramValues';
import { categoryLabel } from './optionLabel';
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

/** The selected step: its name, what its type does, and its settings form. */
export function StepInspector({ workflowId, step, info, write, onClose, onDelete, onDuplicate }: StepInspectorProps) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const look = lookOf(info?.category);
  const [patchParams, { isLoading: saving }] = usePatchStepParamsMutation();
  const [updateStep] = useUpdateStepMutation();
  const { data: references } = useGetVariableFieldsQuery({ workflowId, stepId: step.id });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [name, setName] = useState(step.name);
  const [nameFor, setNameFor] = useState(step.id + step.name);
  if (nameFor !== step.id + step.name) {
    setNameFor(step.id + step.name);
    setName(step.name);
  }

  const save = useCallback(
    async (changes: Record<string, unknown>) => {
      setServerErrors({});
      const result = await write((version) => patchParams({ workflowId, stepId: step.id, version, params: changes }));
      if ('error' in result) setServerErrors(paramErrorsFrom(result.error));
    },
    [patchParams, step.id, workflowId, write],
  );

  const onEdit = useCallback((field: string) => setServerErrors((e) => (e[field] ? { ...e, [field]: '' } : e)), []);

  const rename = () => {
    const next = name.trim();
    if (!next || next === step.name) return setName(step.name);
    void write((version) => updateStep({ workflowId, stepId: step.id, version, changes: { name: next } }));
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
          onChange={(e) => setName(e.target.value)}
          onBlur={rename}
          onKeyDown={(e) => {
            if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
            if (e.key === 'Escape') setName(step.name);
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
        {info ? (
          <ParamForm
            // A new step, or the same step changed on the server (undo, another tab): start again.
            key={`${step.id}:${JSON.stringify(step.param_inputs)}`}
            params={info.params}
            values={step.param_inputs}
            references={references}
            serverErrors={cleanErrors}
            saving={saving}
            onSave={save}
            onEdit={onEdit}
          />
        ) : (
          <Text color="fg.muted" textStyle="sm">
            {t('editor.inspector.unknownType')}
          </Text>
        )}
      </Box>
    </Stack>
  );
}
