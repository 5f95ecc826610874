import { Badge, Box, Button, Center, Checkbox, Flex, Heading, HStack, Link, Spinner, Stack, Table, Tabs, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuDownload, LuWorkflow } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { useParams } from 'react-router-dom';
import { useAppDispatch } from '../../app/hooks';
import { usePageTitle } from '../../app/usePageTitle';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useLocale } from '../../i18n/useLocale';
import { formatBytes } from '../files/format';
import { downloadFromApi, reportTransferFailure } from '../files/transfer';
import { useGetDatasetQuery, type DatasetOut } from './datasetsApi';
import { CompareView } from './CompareView';
import { RecordsGrid, type GridView } from './RecordsGrid';

type DownloadFormat = 'csv' | 'parquet';

/** The download call for what the grid shows: its sort and filters, record ids only when asked. */
export function downloadUrl(datasetId: string, format: DownloadFormat, view: GridView, includeIds: boolean): string {
  const query = new URLSearchParams({ format });
  if (view.sort) query.set('sort', `${view.sort.column}:${view.sort.direction}`);
  if (view.filters.length) query.set('filters', JSON.stringify(view.filters));
  query.set('include_id', String(includeIds));
  return `/datasets/${encodeURIComponent(datasetId)}/download?${query.toString()}`;
}

/**
 * Downloads what is shown: the grid's sort and filters, its columns, `_id` only when asked. The
 * bearer token rules out a plain link: the file comes as a blob through the same headers.
 */
function DownloadButtons({ dataset, view }: { dataset: DatasetOut; view: GridView }) {
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState<DownloadFormat | null>(null);
  const [includeIds, setIncludeIds] = useState(false);
  const download = async (format: DownloadFormat) => {
    setBusy(format);
    try {
      await downloadFromApi(downloadUrl(dataset.id, format, view, includeIds), `${dataset.name}.${format}`);
    } catch (err) {
      reportTransferFailure(dispatch, err);
    } finally {
      setBusy(null);
    }
  };
  const narrowed = view.sort !== null || view.filters.length > 0;
  return (
    <HStack gap="3" wrap="wrap" justify="flex-end">
      <Checkbox.Root size="sm" checked={includeIds} onCheckedChange={(d) => setIncludeIds(d.checked === true)}>
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>
          <FormattedMessage id="datasets.download.includeIds" />
        </Checkbox.Label>
      </Checkbox.Root>
      {narrowed && (
        <Text textStyle="xs" color="fg.muted" data-testid="download-as-shown">
          <FormattedMessage id="datasets.download.asShown" />
        </Text>
      )}
      {(['csv', 'parquet'] as const).map((format) => (
        <Button key={format} size="sm" variant="outline" loading={busy === format} onClick={() => void download(format)}>
          <LuDownload /> <FormattedMessage id={`datasets.download.${format}`} />
        </Button>
      ))}
    </HStack>
  );
}

function SchemaTable({ dataset }: { dataset: DatasetOut }) {
  const intl = useIntl();
  return (
    <Table.Root size="sm" variant="outline" aria-label={intl.formatMessage({ id: 'datasets.schema.label' })}>
      <Table.Header>
        <Table.Row bg="bg.subtle">
          <Table.ColumnHeader>
            <FormattedMessage id="datasets.schema.column" />
          </Table.ColumnHeader>
          <Table.ColumnHeader>
            <FormattedMessage id="datasets.schema.type" />
          </Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {dataset.columns.map((c) => (
          <Table.Row key={c.name}>
            <Table.Cell fontFamily="mono">{c.name}</Table.Cell>
            <Table.Cell fontFamily="mono" color="fg.muted">
              {c.type}
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

const WHOLE: GridView = { sort: null, filters: [] };

/** `/datasets/:datasetId`: what a dataset is (size, columns, where it came from) and its records. */
export function DatasetPage() {
  usePageTitle('datasets.title');
  const { datasetId = '' } = useParams();
  const locale = useLocale();
  const intl = useIntl();
  const { data: dataset, isLoading, error } = useGetDatasetQuery(datasetId);
  const [view, setView] = useState<GridView>(WHOLE);

  if (isLoading) {
    return (
      <Center py="16">
        <Spinner color="brand.solid" />
      </Center>
    );
  }
  if (!dataset) {
    const missing = error && 'status' in error && error.status === 404;
    return (
      <Center py="16">
        <Text color="fg.muted">
          <FormattedMessage id={missing ? 'datasets.notFound' : 'datasets.failed'} />
        </Text>
      </Center>
    );
  }

  return (
    <Stack gap="5" minW="0">
      <Flex justify="space-between" align="start" gap="4" wrap="wrap">
        <Stack gap="1" minW="0">
          <Heading as="h1" size="xl" truncate>
            {dataset.name}
          </Heading>
          <HStack gap="3" color="fg.muted" textStyle="sm" wrap="wrap">
            <Text>
              <FormattedMessage id="datasets.rows" values={{ count: dataset.row_count }} />
            </Text>
            {/* 0 while a fresh output's snapshot is still being written: no size to tell yet. */}
            {dataset.bytes > 0 && <Text>{formatBytes(dataset.bytes, locale)}</Text>}
            <Text>
              <FormattedMessage id="datasets.columnCount" values={{ count: dataset.columns.length }} />
            </Text>
          </HStack>
          {dataset.workflow_id && dataset.step_id && (
            <Link asChild textStyle="sm" colorPalette="brand" color="colorPalette.fg" w="fit-content" data-testid="dataset-origin">
              <LocaleLink
                to={`/workflows/${dataset.workflow_id}?${new URLSearchParams({ step: dataset.step_id, ...(dataset.run_id ? { run: dataset.run_id } : {}) }).toString()}`}
              >
                <LuWorkflow aria-hidden />
                <FormattedMessage id="datasets.origin" />
              </LocaleLink>
            </Link>
          )}
          {dataset.parents && dataset.parents.length > 0 && (
            <HStack gap="2" textStyle="sm" wrap="wrap" aria-label={intl.formatMessage({ id: 'datasets.lineage' })}>
              <Text color="fg.muted">
                <FormattedMessage id="datasets.lineage" />
              </Text>
              {dataset.parents.map((parent) => (
                <Badge key={parent.id} variant="outline" colorPalette="brand">
                  <Link asChild color="fg" textDecoration="underline">
                    <LocaleLink to={`/datasets/${parent.id}`}>{parent.name}</LocaleLink>
                  </Link>
                </Badge>
              ))}
            </HStack>
          )}
        </Stack>
        <DownloadButtons dataset={dataset} view={view} />
      </Flex>
      <Tabs.Root defaultValue="records" variant="line" lazyMount>
        <Tabs.List>
          <Tabs.Trigger value="records">
            <FormattedMessage id="datasets.tab.records" />
          </Tabs.Trigger>
          <Tabs.Trigger value="schema">
            <FormattedMessage id="datasets.tab.schema" />
          </Tabs.Trigger>
          {dataset.step_id && (
            <Tabs.Trigger value="compare">
              <FormattedMessage id="datasets.tab.compare" />
            </Tabs.Trigger>
          )}
        </Tabs.List>
        <Tabs.Content value="records">
          <Box>
            <RecordsGrid key={dataset.id} datasetId={dataset.id} onViewChange={setView} />
          </Box>
        </Tabs.Content>
        <Tabs.Content value="schema">
          <SchemaTable dataset={dataset} />
        </Tabs.Content>
        {dataset.step_id && (
          <Tabs.Content value="compare">
            <CompareView key={dataset.id} dataset={dataset} />
          </Tabs.Content>
        )}
      </Tabs.Root>
    </Stack>
  );
}
