import { Badge, Box, Flex, Heading, Skeleton, Stack, Tabs, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { useGetDatasetQuery, useGetRecordsPageQuery, useGetStepDatasetQuery, type DatasetOut } from '../datasets/datasetsApi';
import { DatasetLink } from '../datasets/DatasetLink';
import { RecordsPreviewTable } from '../datasets/RecordsPreviewTable';
import { isDoneState } from '../runs/runLook';
import type { StepRun } from '../runs/runsApi';

/** Rows shown beside a step: enough to see the shape, few enough to fetch at once. */
export const STEP_DATA_ROWS = 5;

interface StepDataProps {
  step: StepOut;
  /** The step runs of the run the editor shows, by step id: their outputs are what is shown. */
  stepRuns: ReadonlyMap<string, StepRun>;
}

/** A side of the step: what it wrote, or what one of its inputs read. */
type Side = { kind: 'output' } | { kind: 'input'; input: number };

const sideKey = (side: Side) => (side.kind === 'output' ? 'output' : `input-${side.input}`);

/** The dataset a finished step run wrote, if it wrote one. */
function finishedOutput(stepRun: StepRun | undefined): string | null {
  return stepRun && isDoneState(stepRun.state) ? stepRun.output_dataset_id : null;
}

/**
 * In the step inspector: the step's data, as n8n shows a node's input and output. The output is
 * the run shown's (the run picked in the history, else the newest), else the step's newest output
 * of any run; an input is the output of the step it reads. Each shows its row count, its columns
 * with their types, and its first rows, with a link to the whole dataset. Before a step has run,
 * it says how to get its data (a preview on a sample runs the steps up to it).
 */
export function StepData({ step, stepRuns }: StepDataProps) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const sides: Side[] = [...step.inputs.map((_, input) => ({ kind: 'input' as const, input })), { kind: 'output' }];
  const [picked, setPicked] = useState('output');
  const current = sides.find((s) => sideKey(s) === picked) ?? sides[sides.length - 1];
  const label = (side: Side) =>
    side.kind === 'output' ? t('steps.data.output') : step.inputs.length > 1 ? t('steps.data.inputNumber', { number: side.input + 1 }) : t('steps.data.input');

  return (
    <Stack as="section" gap="3" pb="4" mb="4" borderBottomWidth="1px" borderColor="border.muted" aria-labelledby="step-data-heading" data-testid="step-data">
      <Flex align="center" justify="space-between" gap="2">
        <Heading as="h3" id="step-data-heading" size="sm">
          {t('steps.data.title')}
        </Heading>
        {sides.length > 1 && (
          <Tabs.Root value={sideKey(current)} onValueChange={(d) => setPicked(d.value)} size="sm" variant="subtle">
            <Tabs.List>
              {sides.map((side) => (
                <Tabs.Trigger key={sideKey(side)} value={sideKey(side)}>
                  {label(side)}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
          </Tabs.Root>
        )}
      </Flex>
      <SideData key={`${step.id}:${sideKey(current)}`} step={step} side={current} stepRuns={stepRuns} />
    </Stack>
  );
}

function SideData({ step, side, stepRuns }: { step: StepOut; side: Side; stepRuns: ReadonlyMap<string, StepRun> }) {
  const intl = useIntl();
  const source = side.kind === 'output' ? step.id : step.inputs[side.input];
  const shownRunOutput = finishedOutput(stepRuns.get(source));
  // Not in the run shown (never run, or that run stopped before it): the newest output of any run.
  const newest = useGetStepDatasetQuery(side.kind === 'output' ? { stepId: step.id, side: 'output' } : { stepId: step.id, side: 'input', input: side.input }, {
    skip: shownRunOutput !== null,
  });
  const shown = useGetDatasetQuery(shownRunOutput ?? '', { skip: shownRunOutput === null });
  const dataset = shownRunOutput ? shown.data : newest.data;
  const loading = shownRunOutput ? shown.isLoading : newest.isLoading;
  if (loading) return <Skeleton h="24" rounded="md" />;
  if (!dataset) {
    return (
      <Text textStyle="sm" color="fg.muted" data-testid="step-data-none">
        {intl.formatMessage({ id: side.kind === 'output' ? 'steps.data.noOutput' : 'steps.data.noInput' })}
      </Text>
    );
  }
  return <DatasetGlance dataset={dataset} />;
}

/** A dataset at a glance: its count, its columns and types, its first rows, and the way to all of it. */
function DatasetGlance({ dataset }: { dataset: DatasetOut }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const columns = dataset.columns.filter((c) => c.name !== '_id');
  const { data: page, isLoading } = useGetRecordsPageQuery({ datasetId: dataset.id, page: 1, pageSize: STEP_DATA_ROWS, sort: null, filters: [] });
  return (
    <Stack gap="2">
      <Flex align="center" justify="space-between" gap="2" wrap="wrap">
        <Text textStyle="sm" fontWeight="medium" data-testid="step-data-count">
          {t('steps.data.count', { rows: dataset.row_count, columns: columns.length })}
        </Text>
        <DatasetLink datasetId={dataset.id}>{t('steps.data.open')}</DatasetLink>
      </Flex>
      <Flex wrap="wrap" gap="1" as="ul" listStyleType="none" aria-label={t('steps.data.columns')}>
        {columns.map((c) => (
          <Box as="li" key={c.name}>
            <Badge size="sm" variant="outline" fontWeight="normal" maxW="56" truncate title={`${c.name} · ${c.type}`}>
              {c.name}
              <Text as="span" fontFamily="mono" color="fg.muted">
                {c.type}
              </Text>
            </Badge>
          </Box>
        ))}
      </Flex>
      {isLoading ? (
        <Skeleton h="20" rounded="md" />
      ) : (
        <RecordsPreviewTable columns={dataset.columns} records={page?.items ?? []} rows={STEP_DATA_ROWS} label={t('steps.data.rows')} />
      )}
    </Stack>
  );
}
