import { Badge, Field, Flex, Heading, Icon, Link, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { LuBot, LuUser } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { DataTable, EmptyListState } from '../../components/DataTable';
import { LocaleLink } from '../../i18n/LocaleLink';
import { formatCredits } from '../usage/format';
import { useGetBalanceQuery } from '../usage/usageApi';
import { useListWorkflowsQuery } from '../workflows/workflowsApi';
import { formatRunDuration, runLink } from './runFigures';
import { RunStateBadge } from './RunStateBadge';
import { useListRunsQuery, type RunListItem, type RunStarter, type RunState } from './runsApi';

const PAGE_SIZE = 20;
/** The filter offers the user's workflows by name (as the billing page's usage filter does). */
const WORKFLOW_CHOICES = 200;
/** The states a run (not a step run) can be in, as the status filter offers them. */
export const RUN_FILTER_STATES: readonly RunState[] = ['queued', 'running', 'paused', 'succeeded', 'failed', 'cancelled'];
/** While a listed run may still change, the list is read again this often. */
const LIVE_POLL_MS = 5_000;

const isRunState = (value: string | null): value is RunState => !!value && (RUN_FILTER_STATES as readonly string[]).includes(value);

/** "You" or "Agent", with an icon: who or what started a run. */
export function StartedBy({ by }: { by: RunStarter }) {
  const intl = useIntl();
  return (
    <Badge variant="outline" colorPalette={by === 'agent' ? 'purple' : 'gray'} data-started-by={by}>
      <Icon as={by === 'agent' ? LuBot : LuUser} aria-hidden />
      {intl.formatMessage({ id: `executions.startedBy.${by}` })}
    </Badge>
  );
}

/**
 * Every run of the user's, across their workflows, newest first: its state (with why), workflow,
 * start, duration, records, cost and who started it; filtered by state and workflow, a page at a
 * time. The filters are in the address (?state=failed&workflow=…), so a link can open them.
 */
export function ExecutionsPage() {
  usePageTitle('nav.executions');
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [params, setParams] = useSearchParams();
  const stateParam = params.get('state');
  const state = isRunState(stateParam) ? stateParam : '';
  const workflowId = params.get('workflow') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);

  /** Changes one filter (or the page); a filter change starts again from the first page. */
  const update = (key: 'state' | 'workflow' | 'page', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value && !(key === 'page' && value === '1')) next.set(key, value);
        else next.delete(key);
        if (key !== 'page') next.delete('page');
        return next;
      },
      { replace: true },
    );

  // Read again every few seconds while a listed run is queued or running; a list of ended runs stays still.
  const [live, setLive] = useState(false);
  const {
    data: runs,
    isLoading,
    isFetching,
  } = useListRunsQuery(
    { states: state ? [state] : undefined, workflowId: workflowId || undefined, page, pageSize: PAGE_SIZE },
    { pollingInterval: live ? LIVE_POLL_MS : 0, skipPollingIfUnfocused: true },
  );
  useEffect(() => setLive(!!runs?.items.some((run) => run.state === 'queued' || run.state === 'running')), [runs]);
  const { data: workflows } = useListWorkflowsQuery({ page_size: WORKFLOW_CHOICES, sort: 'name', order: 'asc' });
  const filtered = !!state || !!workflowId;
  // A server without billing charges nothing: the cost column is left out.
  const billingOn = useGetBalanceQuery().data?.billing_enabled ?? true;

  return (
    <Stack gap="6">
      <Stack gap="1">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          <FormattedMessage id="nav.executions" />
        </Heading>
        <Text color="fg.muted" fontSize="lg">
          <FormattedMessage id="executions.subtitle" />
        </Text>
      </Stack>
      <Flex gap="3" wrap="wrap" align="flex-end">
        <Field.Root width="auto" minW="44">
          <Field.Label>{t('executions.filter.state')}</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field value={state} onChange={(e) => update('state', e.target.value)}>
              <option value="">{t('executions.filter.allStates')}</option>
              {RUN_FILTER_STATES.map((s) => (
                <option key={s} value={s}>
                  {t(`run.state.${s}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root width="auto" minW="48">
          <Field.Label>{t('executions.filter.workflow')}</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field value={workflowId} onChange={(e) => update('workflow', e.target.value)}>
              <option value="">{t('executions.filter.allWorkflows')}</option>
              {(workflows?.items ?? []).map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
      </Flex>
      <DataTable
        appearance="panel"
        interactive
        label={t('executions.table')}
        rows={runs?.items}
        rowKey={(run) => run.id}
        rowProps={(run) => ({ 'data-testid': 'execution-row', 'data-state': run.state })}
        isLoading={isLoading}
        isFetching={isFetching}
        empty={
          <EmptyListState
            framed
            title={t(filtered ? 'executions.empty.filtered' : 'executions.empty')}
            description={filtered ? undefined : t('executions.empty.hint')}
          />
        }
        pagination={runs && { page, pageSize: PAGE_SIZE, total: runs.total, onChange: (p) => update('page', String(p)) }}
        columns={[
          {
            id: 'state',
            header: t('executions.col.state'),
            cell: (run) => <RunStateBadge state={run.state} reason={run.state_reason} title={run.state_reason?.message} />,
          },
          {
            id: 'workflow',
            header: t('executions.col.workflow'),
            cell: (run) => (
              <Stack gap="0" align="flex-start">
                <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="medium">
                  <LocaleLink to={runLink(run)}>{run.workflow_name}</LocaleLink>
                </Link>
                <Text as="span" textStyle="xs" color="fg.muted">
                  {t(`run.mode.${run.mode}`)}
                  {run.sample_size !== null && ` · ${t('run.panel.preview', { count: run.sample_size })}`}
                </Text>
              </Stack>
            ),
          },
          {
            id: 'started',
            header: t('executions.col.started'),
            cellProps: { whiteSpace: 'nowrap' },
            cell: (run) => intl.formatDate(run.started_at ?? run.created_at, { dateStyle: 'medium', timeStyle: 'short' }),
          },
          {
            id: 'duration',
            header: t('executions.col.duration'),
            align: 'end',
            cellProps: { whiteSpace: 'nowrap' },
            cell: (run) => formatRunDuration(intl, run.duration_ms),
          },
          { id: 'records', header: t('executions.col.records'), align: 'end', cell: (run) => intl.formatNumber(run.records) },
          ...(billingOn
            ? [{ id: 'cost', header: t('executions.col.cost'), align: 'end' as const, cell: (run: RunListItem) => formatCredits(intl, run.cost_credits) }]
            : []),
          {
            id: 'startedBy',
            header: t('executions.col.startedBy'),
            display: { base: 'none', md: 'table-cell' },
            cell: (run) => <StartedBy by={run.started_by} />,
          },
        ]}
      />
    </Stack>
  );
}
