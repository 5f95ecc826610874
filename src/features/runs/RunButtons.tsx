import { Alert, Box, Button, Flex, Heading, HStack, Popover, Portal, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuChevronsDown, LuChevronsUp, LuCircleAlert, LuEye, LuPlay, LuStepForward } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { CostEstimate } from '../usage/CostEstimate';
import { recordsText, RunStateBadge } from './RunStateBadge';
import { PREVIEW_SAMPLE_SIZE, useExecuteStepMutation, type RunMode, type StepRun, type WorkflowRun } from './runsApi';

/** The step "Run workflow" targets: the last one nothing reads from (the whole workflow runs either way). */
export function lastStepOf(steps: StepOut[]): StepOut | undefined {
  const read = new Set(steps.flatMap((s) => s.inputs));
  return [...steps].reverse().find((s) => !read.has(s.id)) ?? steps[steps.length - 1];
}

interface RunStarter {
  workflowId: string;
  /** A run of this workflow is open: no other can start. */
  busy: boolean;
  /**
   * A run of it is paused for lack of credits: the credit chip (balance, top-up) stays shown while
   * it is busy, as the credits are what it waits for.
   */
  pausedForCredits?: boolean;
  /** The new run is shown (canvas, run panel). */
  onStarted: (run: WorkflowRun) => void;
}

/** Starts a run of a step (the server's execute call); the new run is handed to `onStarted`. */
export function useStart({ workflowId, onStarted }: Pick<RunStarter, 'workflowId' | 'onStarted'>) {
  const [execute, { isLoading }] = useExecuteStepMutation();
  const start = async (stepId: string, mode: RunMode, sampleSize?: number) => {
    const result = await execute({ workflowId, stepId, mode, sampleSize });
    if ('data' in result && result.data) onStarted(result.data);
  };
  return { start, starting: isLoading };
}

/** A step a run would be refused for: required params left empty (their labels), or too few inputs. */
export interface StepNotReady {
  step: StepOut;
  missing: string[];
  /** How many inputs its type needs, when fewer are connected; 0 otherwise. */
  inputsNeeded: number;
}

/**
 * The editor toolbar's "Run workflow". While steps need settings or inputs it starts nothing: a
 * click says which step needs what, each step a link to its settings, and no run is asked of the
 * server (which would refuse it).
 */
export function RunWorkflowButton({
  steps,
  notReady = [],
  onShowStep,
  ...starter
}: RunStarter & { steps: StepOut[]; notReady?: StepNotReady[]; onShowStep?: (stepId: string) => void }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { start, starting } = useStart(starter);
  const [explaining, setExplaining] = useState(false);
  const target = lastStepOf(steps);
  const blocked = notReady.length > 0;
  const reason = !target ? t('run.noSteps') : starter.busy ? t('run.busy') : blocked ? t('run.needsSettings.hint') : t('run.workflowHint');
  return (
    <HStack gap="2">
      {/* What the run would cost against the balance (billing servers only), before the click. */}
      {target && (!starter.busy || starter.pausedForCredits) && (
        <Box display={{ base: 'none', lg: 'block' }}>
          <CostEstimate workflowId={starter.workflowId} stepId={target.id} mode="all" compact />
        </Box>
      )}
      <Popover.Root open={explaining && blocked} onOpenChange={(d) => setExplaining(d.open)} positioning={{ placement: 'bottom-end' }} lazyMount unmountOnExit>
        <Popover.Anchor asChild>
          <Button
            size="sm"
            colorPalette="brand"
            loading={starting}
            disabled={!target || starter.busy}
            title={reason}
            aria-label={t('run.workflow')}
            aria-haspopup={blocked ? 'dialog' : undefined}
            aria-expanded={blocked ? explaining : undefined}
            data-blocked={blocked || undefined}
            onClick={() => (blocked ? setExplaining(true) : target && void start(target.id, 'all'))}
          >
            {blocked ? <LuCircleAlert aria-hidden /> : <LuPlay aria-hidden />}
            <Box as="span" display={{ base: 'none', sm: 'inline' }}>
              {t('run.workflow')}
            </Box>
          </Button>
        </Popover.Anchor>
        <Portal>
          <Popover.Positioner>
            <Popover.Content maxW="sm" data-testid="run-needs-settings">
              <Popover.Arrow />
              <Popover.Body>
                <Popover.Title fontWeight="semibold" mb="1">
                  {t('run.needsSettings.title')}
                </Popover.Title>
                <Popover.Description textStyle="sm" color="fg.muted" mb="2">
                  {t('run.needsSettings.body')}
                </Popover.Description>
                <Stack as="ul" gap="1.5" listStyleType="none" aria-label={t('run.needsSettings.list')}>
                  {notReady.map(({ step, missing, inputsNeeded }) => (
                    <Box as="li" key={step.id} textStyle="sm">
                      <Button
                        variant="plain"
                        size="sm"
                        h="auto"
                        p="0"
                        colorPalette="brand"
                        color="colorPalette.fg"
                        textDecoration="underline"
                        maxW="full"
                        title={t('run.needsSettings.open')}
                        onClick={() => {
                          setExplaining(false);
                          onShowStep?.(step.id);
                        }}
                      >
                        <Text as="span" truncate>
                          {step.name}
                        </Text>
                      </Button>
                      {missing.length > 0 && (
                        <Text color="fg.muted">{t('editor.node.missing', { params: intl.formatList(missing, { type: 'conjunction' }) })}</Text>
                      )}
                      {inputsNeeded > 0 && <Text color="fg.muted">{t('run.needsSettings.inputs', { count: inputsNeeded })}</Text>}
                    </Box>
                  ))}
                </Stack>
              </Popover.Body>
            </Popover.Content>
          </Popover.Positioner>
        </Portal>
      </Popover.Root>
    </HStack>
  );
}

/** In the step inspector: run up to / only / from this step, a preview, and its state in the run shown. */
export function StepRunSection({ step, stepRun, ...starter }: RunStarter & { step: StepOut; stepRun: StepRun | undefined }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { start, starting } = useStart(starter);
  const disabled = starter.busy || starting;
  const actions: { mode: RunMode; label: string; hint: string; icon: typeof LuPlay; sample?: number }[] = [
    { mode: 'up_to', label: t('run.upTo'), hint: t('run.upToHint'), icon: LuChevronsDown },
    { mode: 'only', label: t('run.only'), hint: t('run.onlyHint'), icon: LuStepForward },
    { mode: 'from', label: t('run.from'), hint: t('run.fromHint'), icon: LuChevronsUp },
    {
      mode: 'up_to',
      label: t('run.preview', { count: PREVIEW_SAMPLE_SIZE }),
      hint: t('run.previewHint', { count: PREVIEW_SAMPLE_SIZE }),
      icon: LuEye,
      sample: PREVIEW_SAMPLE_SIZE,
    },
  ];
  return (
    <Stack as="section" gap="2" pb="4" mb="4" borderBottomWidth="1px" borderColor="border.muted" aria-labelledby="step-run-heading">
      <Flex align="center" gap="2" wrap="wrap">
        <Heading as="h3" id="step-run-heading" size="sm">
          {t('run.stepSection')}
        </Heading>
        {stepRun && (
          <>
            <RunStateBadge state={stepRun.state} size="sm" data-testid="inspector-run-state" />
            {stepRun.state !== 'queued' && stepRun.state !== 'skipped' && (
              <Text textStyle="xs" color="fg.muted">
                {recordsText(intl, stepRun)}
              </Text>
            )}
          </>
        )}
      </Flex>
      {stepRun?.error && (
        <Alert.Root status="error" size="sm" variant="subtle">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('run.error')}</Alert.Title>
            <Alert.Description whiteSpace="pre-wrap" wordBreak="break-word">
              {stepRun.error.message}
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <Flex gap="2" wrap="wrap">
        {actions.map(({ mode, label, hint, icon: ActionIcon, sample }) => (
          <Button
            key={label}
            size="xs"
            variant="outline"
            disabled={disabled}
            title={starter.busy ? t('run.busy') : hint}
            onClick={() => void start(step.id, mode, sample)}
          >
            <ActionIcon aria-hidden />
            {label}
          </Button>
        ))}
      </Flex>
      {/* "Run up to here" costs the full run; "Preview on 100 records" only what its sample reads. */}
      {(!starter.busy || starter.pausedForCredits) && (
        <Stack gap="1">
          <CostEstimate workflowId={starter.workflowId} stepId={step.id} mode="up_to" />
          <CostEstimate workflowId={starter.workflowId} stepId={step.id} mode="up_to" sampleSize={PREVIEW_SAMPLE_SIZE} preview />
        </Stack>
      )}
      {starter.busy && (
        <Text textStyle="xs" color="fg.muted" data-testid="run-busy">
          {t('run.busy')}
        </Text>
      )}
    </Stack>
  );
}
