import { Badge, Icon, Text, VisuallyHidden, type BadgeProps } from '@chakra-ui/react';
import { useIntl, type IntlShape } from 'react-intl';
import { RUN_STATE_LOOK, stateLabelId } from './runLook';
import type { RunState, StateReason, StepRun } from './runsApi';

/**
 * "1,200 of 5,000 records" / "1,200 records" (total unknown); failed records added when any. A
 * finished step without a count is deferred (its output is computed when something reads it).
 */
export function recordsText(intl: IntlShape, stepRun: Pick<StepRun, 'records_done' | 'records_total' | 'records_failed'> & { state?: RunState }): string {
  const deferred = stepRun.records_total === null && (stepRun.state === 'succeeded' || stepRun.state === 'cached') && stepRun.records_done === 0;
  const done = deferred
    ? intl.formatMessage({ id: 'run.recordsDeferred' })
    : stepRun.records_total === null
      ? intl.formatMessage({ id: 'run.recordsDone' }, { done: stepRun.records_done })
      : intl.formatMessage({ id: 'run.records' }, { done: stepRun.records_done, total: stepRun.records_total });
  return stepRun.records_failed > 0 ? `${done} · ${intl.formatMessage({ id: 'run.recordsFailed' }, { failed: stepRun.records_failed })}` : done;
}

/**
 * A run or step run state as an icon and words, in the state's colour; with its reason when it has
 * one ("Paused: out of credits", "Cancelled by you", "Failed: worker lost").
 */
export function RunStateBadge({ state, reason, ...rest }: { state: RunState; reason?: StateReason | null } & BadgeProps) {
  const intl = useIntl();
  const look = RUN_STATE_LOOK[state];
  return (
    <Badge colorPalette={look.palette} variant="subtle" data-state={state} data-reason={reason?.code} {...rest}>
      <Icon as={look.icon} aria-hidden />
      {intl.formatMessage({ id: stateLabelId(state, reason) })}
    </Badge>
  );
}

/** On a canvas node: the step run's state (a progress ring while running), records, and the error on hover. */
export function NodeRunBadge({ stepRun }: { stepRun: StepRun }) {
  const intl = useIntl();
  const look = RUN_STATE_LOOK[stepRun.state];
  const label = intl.formatMessage({ id: stateLabelId(stepRun.state, stepRun.state_reason) });
  const records = stepRun.state === 'queued' || stepRun.state === 'skipped' ? '' : recordsText(intl, stepRun);
  const error = stepRun.error?.message ?? '';
  const title = [label, records, error].filter(Boolean).join(' · ');
  return (
    <Badge colorPalette={look.palette} variant="subtle" size="sm" mt="1" maxW="full" title={title} data-testid="step-run-state" data-state={stepRun.state}>
      {stepRun.state === 'running' ? <ProgressRing percent={stepRun.percent} /> : <Icon as={look.icon} aria-hidden />}
      <Text as="span" truncate>
        {stepRun.state === 'running' && stepRun.percent !== null ? `${label} ${intl.formatNumber(stepRun.percent / 100, { style: 'percent' })}` : label}
        {records && ` · ${records}`}
      </Text>
      {error && <VisuallyHidden>{error}</VisuallyHidden>}
    </Badge>
  );
}

/** A small ring filled to `percent` in the text colour (a quarter, turning, while the total is unknown). */
function ProgressRing({ percent }: { percent: number | null }) {
  const r = 5;
  const length = 2 * Math.PI * r;
  const filled = percent === null ? length / 4 : (Math.max(0, Math.min(100, percent)) / 100) * length;
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden style={{ flexShrink: 0, transform: 'rotate(-90deg)' }}>
      <circle cx="7" cy="7" r={r} fill="none" stroke="currentColor" strokeOpacity={0.25} strokeWidth="2" />
      <circle cx="7" cy="7" r={r} fill="none" stroke="currentColor" strokeWidth="2" strokeDasharray={`${filled} ${length}`} strokeLinecap="round" />
    </svg>
  );
}
