import { Badge, Box, Button, Flex, Heading, IconButton, Link, Progress, Stack, Tabs, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuChevronDown, LuChevronRight, LuChevronUp, LuDatabase, LuPause, LuPlay, LuRotateCcw, LuSquare } from 'react-icons/lu';
import { useIntl, type IntlShape } from 'react-intl';
import { RelativeTime } from '../../components/RelativeTime';
import { LocaleLink } from '../../i18n/LocaleLink';
import { Pager } from '../workflows/Pager';
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

/** How often a running step's rate and ETA, and its compute details, are read. */
const DETAIL_POLL_MS = 2000;

const ACTION_ICONS = { pause: LuPause, resume: LuPlay, cancel: LuSquare, retry: LuRotateCcw, retry_failed_records: LuRotateCcw } as const;

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
      return ['retry'];
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
      return stepRun.records_failed > 0 ? ['retry', 'retry_failed_records'] : ['retry'];
    case 'cancelled':
      return ['retry'];
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
export function RunPanel({ editorRun }: { editorRun: EditorRun }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [open, setOpen] = useState(true);
  const { run, pick } = editorRun;
  const [controlRun, { isLoading: controlling }] = useControlRunMutation();
  const finishedSteps = run ? run.step_runs.filter((s) => !isOpenState(s.state)).length : 0;

  return (
    <Box as="section" aria-labelledby="run-panel-heading" borderTopWidth="1px" borderColor="border.muted" bg="bg.panel" flexShrink="0" data-testid="run-panel">
      <Flex align="center" gap="3" px="3" py="1.5" wrap="wrap">
        <IconButton
          size="xs"
          variant="ghost"
          aria-expanded={open}
          aria-controls="run-panel-body"
          aria-label={t(open ? 'run.panel.collapse' : 'run.panel.expand')}
          title={t(open ? 'run.panel.collapse' : 'run.panel.expand')}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? <LuChevronDown /> : <LuChevronUp />}
        </IconButton>
        <Heading as="h2" size="sm" id="run-panel-heading">
          {t('run.panel.title')}
        </Heading>
        {run ? (
          <>
            <RunStateBadge state={run.state} data-testid="run-state" />
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
                    onClick={() => void controlRun({ runId: run.id, action })}
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
      {open && (
        <Box id="run-panel-body" maxH={{ base: '50vh', lg: '36vh' }} overflowY="auto" px="3" pb="2">
          <Tabs.Root defaultValue="steps" size="sm" variant="line" lazyMount>
            <Tabs.List>
              <Tabs.Trigger value="steps">{t('run.panel.steps')}</Tabs.Trigger>
              <Tabs.Trigger value="history">{t('run.history')}</Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="steps" pt="2">
              {run ? (
                <Stack gap="1" as="ul" listStyleType="none">
                  {run.step_runs.map((stepRun) => (
                    <StepRunRow key={stepRun.id} stepRun={stepRun} />
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
    </Box>
  );
}

/** The workflow's runs, newest first, a page at a time; the one shown is marked, another can be picked. */
function RunHistory({ workflowId, shown, onPick }: { workflowId: string; shown: WorkflowRun | undefined; onPick: (runId: string) => void }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [page, setPage] = useState(1);
  const { data: history } = useListRunsQuery({ workflowId, page });
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
              justifyContent="flex-start"
              aria-current={item.id === shown?.id ? 'true' : undefined}
              title={t('run.history.pick')}
              onClick={() => onPick(item.id)}
              data-testid="run-history-item"
            >
              {/* The shown run's state is live; the list's copy may be a moment old. */}
              <RunStateBadge state={item.id === shown?.id ? shown.state : item.state} size="sm" />
              <Text as="span">{t(`run.mode.${item.mode}`)}</Text>
              {item.sample_size !== null && (
                <Text as="span" color="fg.muted">
                  {t('run.panel.preview', { count: item.sample_size })}
                </Text>
              )}
              <Text as="span" color="fg.muted" ms="auto" textStyle="xs">
                <RelativeTime value={item.created_at} />
              </Text>
            </Button>
          </li>
        ))}
      </Stack>
      {history.total > history.page_size && <Pager page={page} pageSize={history.page_size} total={history.total} onChange={setPage} />}
    </Stack>
  );
}

function StepRunRow({ stepRun }: { stepRun: StepRun }) {
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
          <Text as="span" truncate fontWeight="semibold">
            {stepRun.step_name}
          </Text>
        </Button>
        <RunStateBadge state={stepRun.state} size="sm" />
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
        {stepRun.output_dataset_id && (
          <Link asChild textStyle="xs" colorPalette="brand" color="colorPalette.fg">
            <LocaleLink to={`/datasets/${stepRun.output_dataset_id}`}>
              <LuDatabase aria-hidden />
              {t('run.step.output')}
            </LocaleLink>
          </Link>
        )}
        <Flex gap="1.5">
          {stepRunActions(stepRun).map((action) => {
            const ActionIcon = ACTION_ICONS[action];
            return (
              <Button
                key={action}
                size="2xs"
                variant="outline"
                disabled={controlling}
                onClick={() => void control({ stepRunId: stepRun.id, runId: stepRun.run_id, action })}
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

function StepRunDetails({ id, stepRun }: { id: string; stepRun: StepRun }) {
  const intl = useIntl();
  const t = (key: string, values?: Record<string, string | number>) => intl.formatMessage({ id: key }, values);
  const open = isOpenState(stepRun.state);
  const { data, isLoading } = useGetStepRunDetailsQuery(stepRun.id, { pollingInterval: open ? DETAIL_POLL_MS : 0 });
  const jobs = data?.items ?? [];
  return (
    <Box id={id} ps="6" pt="2" data-testid="step-run-details">
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
            {job.log_lines.length ? job.log_lines.join('\n') : t('run.step.noLog')}
          </Box>
        </Stack>
      ))}
    </Box>
  );
}
