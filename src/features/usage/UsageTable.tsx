import { Field, Flex, Heading, Input, Link, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { LocaleLink } from '../../i18n/LocaleLink';
import { DataTable, EmptyListState } from '../../components/DataTable';
import { useListWorkflowsQuery } from '../workflows/workflowsApi';
import { formatCredits } from './format';
import { useListUsageRecordsQuery } from './usageApi';

const PAGE_SIZE = 20;
/** The filter offers the user's workflows by name; more than this is rare and still typed by date. */
const WORKFLOW_CHOICES = 200;

/** Every charge: what was used (quantity, unit, unit price), its credits, and where (workflow, step, run). */
export function UsageTable() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [workflowId, setWorkflowId] = useState('');
  const [page, setPage] = useState(1);
  const { data, isFetching } = useListUsageRecordsQuery({ page, pageSize: PAGE_SIZE, startDate, endDate, workflowId });
  const { data: workflows } = useListWorkflowsQuery({ page_size: WORKFLOW_CHOICES, sort: 'name', order: 'asc' });
  // A filter change starts again from the first page.
  const filter = (set: (value: string) => void) => (value: string) => {
    set(value);
    setPage(1);
  };

  return (
    <Stack as="section" gap="4" aria-labelledby="usage-records-heading">
      <Heading as="h2" size="lg" id="usage-records-heading">
        {t('billing.records.title')}
      </Heading>
      <Flex gap="3" wrap="wrap" align="flex-end">
        <Field.Root width="auto">
          <Field.Label>{t('billing.records.from')}</Field.Label>
          <Input type="date" size="sm" value={startDate} max={endDate || undefined} onChange={(e) => filter(setStartDate)(e.target.value)} />
        </Field.Root>
        <Field.Root width="auto">
          <Field.Label>{t('billing.records.to')}</Field.Label>
          <Input type="date" size="sm" value={endDate} min={startDate || undefined} onChange={(e) => filter(setEndDate)(e.target.value)} />
        </Field.Root>
        <Field.Root width="auto" minW="48">
          <Field.Label>{t('billing.records.workflow')}</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field value={workflowId} onChange={(e) => filter(setWorkflowId)(e.target.value)}>
              <option value="">{t('billing.records.allWorkflows')}</option>
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
        appearance="subtle"
        label={t('billing.records.title')}
        rows={data?.items}
        rowKey={(record) => record.id}
        isFetching={isFetching}
        empty={<EmptyListState title={t('billing.records.empty')} />}
        pagination={data && { page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage }}
        columns={[
          {
            id: 'date',
            header: t('billing.records.col.date'),
            cellProps: { whiteSpace: 'nowrap' },
            cell: (record) => intl.formatDate(record.created_at, { dateStyle: 'medium', timeStyle: 'short' }),
          },
          { id: 'workflow', header: t('billing.records.col.workflow'), cell: (record) => record.workflow_name ?? t('billing.records.deletedWorkflow') },
          {
            id: 'step',
            header: t('billing.records.col.step'),
            cell: (record) => (
              <>
                {record.step_name ?? record.step_type}
                {record.description && (
                  <Text as="span" display="block" textStyle="xs" color="fg.muted">
                    {record.description}
                  </Text>
                )}
              </>
            ),
          },
          {
            id: 'quantity',
            header: t('billing.records.col.quantity'),
            align: 'end',
            cellProps: { whiteSpace: 'nowrap' },
            cell: (record) => t(`billing.unit.${record.unit}`, { count: record.quantity }),
          },
          { id: 'unitPrice', header: t('billing.records.col.unitPrice'), align: 'end', cell: (record) => formatCredits(intl, record.unit_price) },
          {
            id: 'credits',
            header: t('billing.records.col.credits'),
            align: 'end',
            cellProps: { fontWeight: 'medium' },
            cell: (record) => formatCredits(intl, record.credits),
          },
          {
            id: 'run',
            header: t('billing.records.col.run'),
            cell: (record) =>
              record.workflow_name ? (
                <Link asChild colorPalette="brand" color="colorPalette.fg">
                  <LocaleLink to={`/workflows/${record.workflow_id}?run=${encodeURIComponent(record.run_id)}`}>{t('billing.records.openRun')}</LocaleLink>
                </Link>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </Stack>
  );
}
