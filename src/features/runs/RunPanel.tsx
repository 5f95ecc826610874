import { Badge, Box, Button, Flex, Heading, IconButton, Progress, Stack, Tabs, Text, VisuallyHidden } from '@chakra-ui/react';
import { Fragment, useCallback, useEffect, useState } from 'react';
import { LuChevronDown, LuChevronRight, LuChevronUp, LuCoins, LuPause, LuPlay, LuRefreshCcw, LuRotateCcw, LuSquare } from 'react-icons/lu';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LocalTime } from '../../components/LocalTime';
import { RelativeTime } from '../../components/RelativeTime';
import { LocaleLink } from '../../i18n/LocaleLink';
import { Pager } from '../../components/DataTable';
import { formatCredits } from '../usage/format';
import { useGetBalanceQuery } from '../usage/usageApi';
import { DatasetLink } from '../datasets/DatasetLink';
import { CancelRunDialog } from './CancelRunDialog';
import { formatRunDuration } from './runFigures';
import { isOpenState } from './runLook';
import { recordsText, RunStateBadge } from './RunStateBadge';
import {
  useControlRunMutation,
  useControlStepRunMutation,
  useGetStepRunDetailsQuery,
  useGetStepRunProgressQuery,
  useListRunsQuery,
  type RunAction,
  type StepRun,
  type StepRunAction,
  type WorkflowRun,
} from './runsApi';
import type { EditorRun } from './useLiveRun';
import { MIN_BODY_PX, useRunPanelLayout } from './useRunPanelLayout';

/** How often a running step's rate and ETA, and its compute details, are read. */
const DETAIL_POLL_MS = 2000;

const ACTION_ICONS = {
  pause: LuPause,
  resume: LuPlay,
  cancel: LuSquare,
  retry: LuRotateCcw,
  retry_failed_records: LuRotateCcw,
  retry_from_scratch: LuRefreshCcw,
} as const;

/** What can be done to a run in its state. */
export function runActions(run: Pick<WorkflowRun, 'state'>): RunAction[] {
  switch (run.state) {
    case 'queued':
    case 'running':
      return ['pause', 'cancel'];
    case 'paused':
      return ['resume', 'cancel'];
    case 'failed':
    case 'cancelled':
      return ['retry', 'retry_from_scratch'];
    default:
      return [];
  }
}

/** What can be done to a step run in its state. */
export function stepRunActions(stepRun: Pick<StepRun, 'state' | 'records_failed'>): StepRunAction[] {
  switch (stepRun.state) {
    case 'running':
      return ['pause', 'cancel'];
    case 'queued':
      return ['cancel'];
    case 'paused':
      return ['resume', 'cancel'];
    case 'failed':
      return stepRun.records_failed > 0 ? ['retry', 'retry_failed_records', 'retry_from_scratch'] : ['retry', 'retry_from_scratch'];
    case 'cancelled':
      return ['retry', 'retry_from_scratch'];
    case 'succeeded':
      return stepRun.records_failed > 0 ? ['retry_failed_records'] : [];
    default:
      return [];
  }
}

/** "12 s", "4 min", "2 h" in the page's language. */
export function durationText(intl: IntlShape, seconds: number): string {
  if (seconds < 60) return intl.formatNumber(Math.max(1, Math.round(seconds)), { style: 'unit', unit: 'second', unitDisplay: 'short' });
  if (seconds < 3600) return intl.formatNumber(Math.round(seconds / 60), { style: 'unit', unit: 'minute', unitDisplay: 'short' });
  return intl.formatNumber(Math.round(seconds / 360) / 10, { style: 'unit', unit: 'hour', unitDisplay: 'short' });
}

/**
 * A step run's bar: full once done; an unknown share only while it is open (Chakra draws null as a
 * moving bar, which would tell of work going on in a step that failed or was skipped).
 */
export function stepBarValue(stepRun: Pick<StepRun, 'state' | 'percent'>): number | null {
  if (stepRun.state === 'succeeded' || stepRun.state === 'cached') return 100;
  return isOpenState(stepRun.state) ? stepRun.percent : (stepRun.percent ?? 0);
}

/**
 * Docked below the canvas: the run shown (state, progress, pause / resume / cancel / retry), each
 * step run's progress with its controls, log and compute details, and the workflow's run history.
 */
export function RunPanel({ editorRun, stepIds }: { editorRun: EditorRun; stepIds?: ReadonlySet<string> }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { open, height, toggle, resizeHandle } = useRunPanelLayout();
  const { run, pick } = editorRun;
  const [controlRun, { isLoading: controlling }] = useControlRunMutation();
  const [controlStepRun, { isLoading: controllingStep }] = useControlStepRunMutation();
  // Cancelling is asked first, showing what is done so far: the whole run (null) or one step run.
  const [toCancel, setToCancel] = useState<{ stepRunId: string | null } | null>(null);
  const keepRunning = useCallback(() => setToCancel(null), []);
  // Another run picked in the history: the question was about the one shown before.
  useEffect(() => setToCancel(null), [run?.id]);
  const confirmCancel = async () => {
    if (!run || !toCancel) return;
    const { stepRunId } = toCancel;
    const result = stepRunId ? await controlStepRun({ stepRunId, runId: run.id, action: 'cancel' }) : await controlRun({ runId: run.id, action: 'cancel' });
    // A refusal is explained by the notices; the question stays for another try or "Keep running".
    if ('data' in result) setToCancel(null);
  };
  // Starting over calls every record's outside systems again (and pays again): asked first.
  const [toRedo, setToRedo] = useState<{ stepRunId: string | null } | null>(null);
  useEffect(() => setToRedo(null), [run?.id]);
  const confirmRedo = async () => {
    if (!run || !toRedo) return;
    const { stepRunId } = toRedo;
    const action = 'retry_from_scratch';
    const result = stepRunId ? await controlStepRun({ stepRunId, runId: run.id, action }) : await controlRun({ runId: run.id, action });
    if ('data' in result) setToRedo(null);
  };
  const finishedSteps = run ? run.step_runs.filter((s) => !isOpenState(s.state)).length : 0;

  return (
    <Box as="section" aria-labelledby="run-panel-heading" borderTopWidth="1px" borderColor="border.muted" bg="bg.panel" flexShrink="0" data-testid="run-panel">
      {/* The panel's top edge: drag it (or use the arrow keys on it) to give the panel more or less of the canvas. */}
      {open && (
        <Box
          role="separator"
          aria-orientation="horizontal"
          aria-controls="run-panel-body"
          aria-label={t('run.panel.resize')}
          aria-valuenow={height}
          aria-valuemin={MIN_BODY_PX}
          tabIndex={0}
          h="1.5"
          cursor="row-resize"
          touchAction="none"
          _hover={{ bg: 'border.emphasized' }}
          _focusVisible={{ bg: 'brand.solid', outline: 'none' }}
          data-testid="run-panel-resize"
          {...resizeHandle}
        />
      )}
      <Flex align="center" gap="3" px="3" py="1.5" wrap="wrap">
        <IconButton
          size="xs"
          variant="ghost"
          aria-expanded={open}
          aria-controls="run-panel-body"
          aria-label={t(open ? 'run.panel.collapse' : 'run.panel.expand')}
          title={t(open ? 'run.panel.collapse' : 'run.panel.expand')}
          onClick={toggle}
        >
          {open ? <LuChevronDown /> : <LuChevronUp />}
        </IconButton>
        <Heading as="h2" size="sm" id="run-panel-heading">
          {t('run.panel.title')}
        </Heading>
        {run ? (
          <>
            <RunStateBadge state={run.state} reason={run.state_reason} data-testid="run-state" />
            {run.sample_size !== null && (
              <Badge variant="outline" size="sm">
                {t('run.panel.preview', { count: run.sample_size })}
              </Badge>
            )}
            <Progress.Root size="sm" w={{ base: '24', md: '40' }} value={run.percent} colorPalette="brand">
              <Progress.Track rounded="full" aria-label={t('run.panel.progress')}>
                <Progress.Range />
              </Progress.Track>
            </Progress.Root>
            <Text textStyle="xs" color="fg.muted" data-testid="run-steps-done">
              {t('run.panel.stepsDone', { done: finishedSteps, total: run.step_runs.length })}
            </Text>
            <Flex gap="2" ms="auto" role="group" aria-label={t('run.panel.controls')}>
              {runActions(run).map((action) => {
                const ActionIcon = ACTION_ICONS[action];
                return (
                  <Button
                    key={action}
                    size="xs"
                    variant="outline"
                    colorPalette={action === 'cancel' ? 'red' : 'gray'}
                    disabled={controlling}
                    onClick={() =>
                      action === 'cancel'
                        ? setToCancel({ stepRunId: null })
                        : action === 'retry_from_scratch'
                          ? setToRedo({ stepRunId: null })
                          : void controlRun({ runId: run.id, action })
                    }
                  >
                    <ActionIcon aria-hidden />
                    {t(`run.action.${action}`)}
                  </Button>
                );
              })}
            </Flex>
          </>
        ) : (
          <Text textStyle="sm" color="fg.muted">
            {t('run.panel.none')}
          </Text>
        )}
      </Flex>
      {run && <RunReason run={run} />}
      {open && (
        <Box id="run-panel-body" h={`${height}px`} overflowY="auto" px="3" pb="2">
          <Tabs.Root defaultValue="steps" size="sm" variant="line" lazyMount>
            <Tabs.List>
              <Tabs.Trigger value="steps">{t('run.panel.steps')}</Tabs.Trigger>
              <Tabs.Trigger value="history">{t('run.history')}</Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="steps" pt="2">
              {run ? (
                <Stack gap="1" as="ul" listStyleType="none">
                  {run.step_runs.map((stepRun) => (
                    <StepRunRow
                      key={stepRun.id}
                      stepRun={stepRun}
                      removed={!!stepIds && !stepIds.has(stepRun.step_id)}
                      onCancel={() => setToCancel({ stepRunId: stepRun.id })}
                      onStartOver={() => setToRedo({ stepRunId: stepRun.id })}
                    />
                  ))}
                </Stack>
              ) : (
                <Text textStyle="sm" color="fg.muted">
                  {t('run.panel.none')}
                </Text>
              )}
            </Tabs.Content>
            <Tabs.Content value="history" pt="2">
              <RunHistory workflowId={editorRun.workflowId} shown={run} onPick={pick} />
            </Tabs.Content>
          </Tabs.Root>
        </Box>
      )}
      {run && (
        <CancelRunDialog
          run={run}
          stepRunId={toCancel?.stepRunId}
          open={toCancel !== null}
          loading={controlling || controllingStep}
          onConfirm={() => void confirmCancel()}
          onCancel={keepRunning}
        />
      )}
      <ConfirmDialog
        open={toRedo !== null}
        title={t('run.startOver.title')}
        body={t('run.startOver.body')}
        confirmLabel={t('run.action.retry_from_scratch')}
        destructive
        loading={controlling || controllingStep}
        onConfirm={() => void confirmRedo()}
        onCancel={() => setToRedo(null)}
      />
    </Box>
  );
}

/**
 * Why the run shown stopped, in the server's words (the error's text when it failed), and the way
 * on when its credits ran out: the top-up, after which it resumes by itself. A pause or cancel by
 * the user is said by the badge alone.
 */
function RunReason({ run }: { run: WorkflowRun }) {
  const intl = useIntl();
  const reason = run.state_reason;
  if (!reason || reason.code === 'by_user') return null;
  return (
    <Flex align="center" gap="3" px="3" pb="1.5" wrap="wrap" data-testid="run-state-reason" data-reason={reason.code}>
      <Text textStyle="sm" color={run.state === 'failed' ? 'fg.error' : 'fg.warning'} whiteSpace="pre-wrap" wordBreak="break-word">
        {reason.message}
      </Text>
      {reason.code === 'credits' && (
        <Button asChild size="xs" colorPalette="brand" title={intl.formatMessage({ id: 'run.reason.topUpHint' })}>
          <LocaleLink to="/billing">
            <LuCoins aria-hidden />
            {intl.formatMessage({ id: 'payments.topUp.title' })}
          </LocaleLink>
        </Button>
      )}
    </Flex>
  );
}

/** The workflow's runs, newest first, a page at a time; the one shown is marked, another can be picked. */
function RunHistory({ workflowId, shown, onPick }: { workflowId: string; shown: WorkflowRun | undefined; onPick: (runId: string) => void }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [page, setPage] = useState(1);
  const { data: history } = useListRunsQuery({ workflowId, page });
  // A server without billing charges nothing: its runs' cost is left out.
  const billingOn = useGetBalanceQuery().data?.billing_enabled ?? true;
  if (!history || history.items.length === 0) {
    return (
      <Text textStyle="sm" color="fg.muted">
        {t('run.panel.none')}
      </Text>
    );
  }
  return (
    <Stack gap="2">
      <Stack gap="1" as="ul" listStyleType="none" aria-label={t('run.history')}>
        {history.items.map((item) => (
          <li key={item.id}>
            <Button
              size="sm"
              variant={item.id === shown?.id ? 'subtle' : 'ghost'}
              w="full"
              h="auto"
              py="1.5"
              flexWrap="wrap"
              justifyContent="flex-start"
              aria-current={item.id === shown?.id ? 'true' : undefined}
              title={t('run.history.pick')}
              onClick={() => onPick(item.id)}
              data-testid="run-history-item"
            >
              {/* The shown run's state is live; the list's copy may be a moment old. */}
              <RunStateBadge
                state={item.id === shown?.id ? shown.state : item.state}
                reason={item.id === shown?.id ? shown.state_reason : item.state_reason}
                size="sm"
              />
              <Text as="span">{t(`run.mode.${item.mode}`)}</Text>
              {item.sample_size !== null && (
                <Text as="span" color="fg.muted">
                  {t('run.panel.preview', { count: item.sample_size })}
                </Text>
              )}
              <Text as="span" color="fg.muted" ms="auto" textStyle="xs">
                <RelativeTime value={item.created_at} />
              </Text>
              <Text as="span" w="full" textAlign="start" color="fg.muted" textStyle="xs" fontWeight="normal" data-testid="run-history-figures">
                {[
                  formatRunDuration(intl, item.duration_ms),
                  t('run.history.records', { count: item.records }),
                  ...(billingOn ? [t('run.history.cost', { count: item.cost_credits, credits: formatCredits(intl, item.cost_credits) })] : []),
                ].join(' · ')}
              </Text>
            </Button>
          </li>
        ))}
      </Stack>
      {history.total > history.page_size && <Pager page={page} pageSize={history.page_size} total={history.total} onChange={setPage} />}
    </Stack>
  );
}

/**
 * One step run: name, state, progress, records, speed, output, its controls (cancel asks first:
 * onCancel). A run holds the steps as they were when it started: one whose step has left the
 * workflow since (deleted, undone, restored away) stays listed, as it did run, marked removed.
 */
function StepRunRow({ stepRun, removed, onCancel, onStartOver }: { stepRun: StepRun; removed: boolean; onCancel: () => void; onStartOver: () => void }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [expanded, setExpanded] = useState(false);
  const running = stepRun.state === 'running';
  const { data: progress } = useGetStepRunProgressQuery(stepRun.id, { skip: !running, pollingInterval: running ? DETAIL_POLL_MS : 0 });
  const [control, { isLoading: controlling }] = useControlStepRunMutation();
  const detailsId = `step-run-details-${stepRun.id}`;
  const speed =
    running && progress
      ? [
          progress.rate_per_second !== null ? t('run.step.rate', { rate: intl.formatNumber(progress.rate_per_second, { maximumFractionDigits: 1 }) }) : '',
          progress.eta_seconds !== null ? t('run.step.eta', { time: durationText(intl, progress.eta_seconds) }) : '',
        ]
          .filter(Boolean)
          .join(' · ')
      : '';

  return (
    <Box as="li" role="group" aria-label={stepRun.step_name} data-testid="step-run-row" borderBottomWidth="1px" borderColor="border.muted" py="1.5">
      <Flex align="center" gap="3" wrap="wrap">
        <Button
          size="xs"
          variant="ghost"
          aria-expanded={expanded}
          aria-controls={detailsId}
          onClick={() => setExpanded((e) => !e)}
          title={t('run.step.details')}
          minW="40"
          maxW="60"
          justifyContent="flex-start"
        >
          {expanded ? <LuChevronDown aria-hidden /> : <LuChevronRight aria-hidden />}
          <Text as="span" truncate fontWeight="semibold" color={removed ? 'fg.muted' : undefined}>
            {stepRun.step_name}
          </Text>
        </Button>
        {removed && (
          <Badge variant="outline" size="sm" title={t('run.step.removedHint')} data-testid="step-run-removed">
            {t('run.step.removed')}
            <VisuallyHidden>{t('run.step.removedHint')}</VisuallyHidden>
          </Badge>
        )}
        <RunStateBadge state={stepRun.state} reason={stepRun.state_reason} size="sm" />
        <Progress.Root size="xs" flex="1" minW="24" value={stepBarValue(stepRun)} colorPalette={stepRun.state === 'failed' ? 'red' : 'brand'}>
          <Progress.Track rounded="full" aria-label={t('run.step.progress', { name: stepRun.step_name })}>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
        <Text textStyle="xs" color="fg.muted" data-testid="step-run-records">
          {recordsText(intl, stepRun)}
        </Text>
        {speed && (
          <Text textStyle="xs" color="fg.muted" data-testid="step-run-speed">
            {speed}
          </Text>
        )}
        {stepRun.output_dataset_id && <DatasetLink datasetId={stepRun.output_dataset_id}>{t('run.step.output')}</DatasetLink>}
        <Flex gap="1.5">
          {stepRunActions(stepRun).map((action) => {
            const ActionIcon = ACTION_ICONS[action];
            return (
              <Button
                key={action}
                size="2xs"
                variant="outline"
                disabled={controlling}
                onClick={() =>
                  action === 'cancel'
                    ? onCancel()
                    : action === 'retry_from_scratch'
                      ? onStartOver()
                      : void control({ stepRunId: stepRun.id, runId: stepRun.run_id, action })
                }
              >
                <ActionIcon aria-hidden />
                {t(`run.action.${action}`)}
              </Button>
            );
          })}
        </Flex>
      </Flex>
      {stepRun.error && (
        <Text textStyle="xs" color="fg.error" mt="1" ps="6" whiteSpace="pre-wrap" wordBreak="break-word">
          {stepRun.error.message}
        </Text>
      )}
      {expanded && <StepRunDetails id={detailsId} stepRun={stepRun} />}
    </Box>
  );
}

/** When a step run or compute job started and ended, in the reader's time zone and language. */
function StartedEnded({ startedAt, endedAt, testId }: { startedAt: string | null; endedAt: string | null; testId: string }) {
  if (!startedAt && !endedAt) return null;
  return (
    <Flex gap="4" wrap="wrap" textStyle="xs" color="fg.muted" data-testid={testId}>
      {startedAt && (
        <Text>
          <FormattedMessage id="run.step.started" values={{ time: <LocalTime value={startedAt} /> }} />
        </Text>
      )}
      {endedAt && (
        <Text>
          <FormattedMessage id="run.step.ended" values={{ time: <LocalTime value={endedAt} /> }} />
        </Text>
      )}
    </Flex>
  );
}

function StepRunDetails({ id, stepRun }: { id: string; stepRun: StepRun }) {
  const intl = useIntl();
  const t = (key: string, values?: Record<string, string | number>) => intl.formatMessage({ id: key }, values);
  const open = isOpenState(stepRun.state);
  const { data, isLoading } = useGetStepRunDetailsQuery(stepRun.id, { pollingInterval: open ? DETAIL_POLL_MS : 0 });
  const jobs = data?.items ?? [];
  return (
    <Box id={id} ps="6" pt="2" data-testid="step-run-details">
      <StartedEnded startedAt={stepRun.started_at} endedAt={stepRun.ended_at} testId="step-run-times" />
      {!isLoading && jobs.length === 0 && (
        <Text textStyle="xs" color="fg.muted">
          {t('run.step.noJobs')}
        </Text>
      )}
      {jobs.map((job) => (
        <Stack key={job.id} gap="1" mb="2">
          <Flex gap="4" wrap="wrap" textStyle="xs">
            <Text fontWeight="semibold">{t('run.step.attempt', { attempt: job.attempt })}</Text>
            <Text>
              {t('run.step.worker')}: {job.worker ?? '—'}
            </Text>
            <Text>
              {t('run.step.cpu')}: {intl.formatNumber(job.cpu_ms / 1000, { style: 'unit', unit: 'second', unitDisplay: 'short', maximumFractionDigits: 2 })}
            </Text>
            <Text>
              {t('run.step.memory')}:{' '}
              {job.peak_rss_bytes === null
                ? '—'
                : intl.formatNumber(job.peak_rss_bytes / 1024 / 1024, { style: 'unit', unit: 'megabyte', unitDisplay: 'short', maximumFractionDigits: 1 })}
            </Text>
          </Flex>
          <StartedEnded startedAt={job.started_at} endedAt={job.ended_at} testId="compute-job-times" />
          {/* The server measures the worker process, not the step (`resources_of: 'process'`): say so. */}
          <Text textStyle="xs" color="fg.muted">
            {t('run.step.processHint')}
          </Text>
          {job.log_dropped > 0 && (
            <Text textStyle="xs" color="fg.muted">
              {t('run.step.logDropped', { count: job.log_dropped })}
            </Text>
          )}
          <Box
            as="pre"
            aria-label={t('run.step.log')}
            tabIndex={0}
            textStyle="xs"
            fontFamily="mono"
            bg="bg.muted"
            color="fg"
            rounded="md"
            p="2"
            maxH="40"
            overflow="auto"
            whiteSpace="pre-wrap"
            wordBreak="break-word"
          >
            {job.log.length
              ? job.log.map((line, i) => (
                  <Fragment key={i}>
                    {i > 0 && '\n'}
                    <span data-testid="log-line">
                      {/* The server sends the time apart (UTC): shown in the reader's zone and language. */}
                      {line.at && (
                        <Text as="span" color="fg.muted">
                          <LocalTime value={line.at} timeOnly />{' '}
                        </Text>
                      )}
                      {line.text}
                    </span>
                  </Fragment>
                ))
              : t('run.step.noLog')}
          </Box>
        </Stack>
      ))}
    </Box>
  );
}
