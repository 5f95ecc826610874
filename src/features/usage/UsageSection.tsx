import { Box, Button, ButtonGroup, Center, Field, Flex, Heading, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react';
import { Suspense, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { lazyComponent } from '../../app/lazyComponent';
import { formatCredits, formatDay, isoDay } from './format';
import { useGetUsageSummaryQuery, type UsageGroupBy, type UsagePeriod } from './usageApi';
import type { ChartKind } from './UsageChart';

// The usage chart's controls and frame. The chart (recharts) is downloaded when first drawn, so it
// is in neither the first load nor the billing page's own chunk.

const UsageChart = lazyComponent(() => import('./UsageChart').then((m) => m.UsageChart));

type View = 'time' | 'workflow';
const PERIODS: UsagePeriod[] = ['day', 'week', 'month'];
const GROUPINGS: UsageGroupBy[] = ['workflow', 'step_type'];

/** How far back each period looks: 30 days, 12 weeks, 12 months (today included). */
function rangeOf(period: UsagePeriod, today = new Date()): { startDate: string; endDate: string } {
  const start = new Date(today);
  if (period === 'day') start.setDate(start.getDate() - 29);
  else if (period === 'week') start.setDate(start.getDate() - 7 * 12 + 1);
  else start.setMonth(start.getMonth() - 11, 1);
  return { startDate: isoDay(start), endDate: isoDay(today) };
}

function Toggle<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  return (
    <ButtonGroup size="sm" variant="outline" attached role="group" aria-label={label}>
      {options.map((option) => (
        <Button
          key={option.value}
          aria-pressed={value === option.value}
          variant={value === option.value ? 'solid' : 'outline'}
          colorPalette={value === option.value ? 'brand' : 'gray'}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </Button>
      ))}
    </ButtonGroup>
  );
}

export function UsageSection() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [view, setView] = useState<View>('time');
  const [period, setPeriod] = useState<UsagePeriod>('day');
  const [groupBy, setGroupBy] = useState<UsageGroupBy>('workflow');
  const [workflowChart, setWorkflowChart] = useState<'bar' | 'pie'>('bar');
  const range = useMemo(() => rangeOf(period), [period]);
  const { data: summary, isLoading } = useGetUsageSummaryQuery({ period, groupBy: view === 'workflow' ? 'workflow' : groupBy, ...range });
  const kind: ChartKind = view === 'time' ? 'time' : workflowChart;
  const empty = summary !== undefined && summary.total_credits === 0;

  return (
    <Stack as="section" gap="4" aria-labelledby="usage-chart-heading">
      <Heading as="h2" size="lg" id="usage-chart-heading">
        {t('billing.chart.title')}
      </Heading>
      <Flex gap="3" wrap="wrap" align="flex-end">
        <Toggle
          label={t('billing.chart.view')}
          value={view}
          onChange={setView}
          options={[
            { value: 'time', label: t('billing.chart.overTime') },
            { value: 'workflow', label: t('billing.chart.byWorkflow') },
          ]}
        />
        <Field.Root width="auto">
          <Field.Label>{t('billing.chart.period')}</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field value={period} onChange={(e) => setPeriod(e.target.value as UsagePeriod)}>
              {PERIODS.map((p) => (
                <option key={p} value={p}>
                  {t(`billing.chart.period.${p}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        {view === 'time' ? (
          <Field.Root width="auto">
            <Field.Label>{t('billing.chart.stackBy')}</Field.Label>
            <NativeSelect.Root size="sm">
              <NativeSelect.Field value={groupBy} onChange={(e) => setGroupBy(e.target.value as UsageGroupBy)}>
                {GROUPINGS.map((g) => (
                  <option key={g} value={g}>
                    {t(`billing.chart.groupBy.${g}`)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        ) : (
          <Toggle
            label={t('billing.chart.type')}
            value={workflowChart}
            onChange={setWorkflowChart}
            options={[
              { value: 'bar', label: t('billing.chart.bar') },
              { value: 'pie', label: t('billing.chart.pie') },
            ]}
          />
        )}
      </Flex>
      {summary && (
        <Text color="fg.muted" textStyle="sm" data-testid="usage-total">
          {t('billing.chart.total', {
            credits: formatCredits(intl, summary.total_credits),
            start: formatDay(intl, summary.start_date, true),
            end: formatDay(intl, summary.end_date, true),
          })}
        </Text>
      )}
      <Box role="figure" aria-label={t('billing.chart.label')} borderWidth="1px" rounded="xl" p="4" minH="300px" bg="bg.panel">
        {isLoading ? (
          <Skeleton height="300px" />
        ) : empty ? (
          <Center minH="268px">
            <Text color="fg.muted">{t('billing.chart.empty')}</Text>
          </Center>
        ) : summary ? (
          <Suspense fallback={<Skeleton height="300px" />}>
            <UsageChart summary={summary} kind={kind} />
          </Suspense>
        ) : null}
      </Box>
    </Stack>
  );
}
