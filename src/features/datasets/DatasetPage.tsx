import { Badge, Box, Button, Center, Flex, Heading, HStack, Link, Spinner, Stack, Table, Tabs, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuDownload } from 'react-icons/lu';
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
import { RecordsGrid } from './RecordsGrid';

type DownloadFormat = 'csv' | 'parquet';

/** The bearer token rules out a plain link: the file comes as a blob through the same headers. */
function DownloadButtons({ dataset }: { dataset: DatasetOut }) {
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState<DownloadFormat | null>(null);
  const download = async (format: DownloadFormat) => {
    setBusy(format);
    try {
      await downloadFromApi(`/datasets/${encodeURIComponent(dataset.id)}/download?format=${format}`, `${dataset.name}.${format}`);
    } catch (err) {
      reportTransferFailure(dispatch, err);
    } finally {
      setBusy(null);
    }
  };
  return (
    <HStack gap="2">
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

/** `/datasets/:datasetId`: what a dataset is (size, columns, where it came from) and its records. */
export function DatasetPage() {
  usePageTitle('datasets.title');
  const { datasetId = '' } = useParams();
  const locale = useLocale();
  const intl = useIntl();
  const { data: dataset, isLoading, error } = useGetDatasetQuery(datasetId);

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
            <Text>{formatBytes(dataset.bytes, locale)}</Text>
            <Text>
              <FormattedMessage id="datasets.columnCount" values={{ count: dataset.columns.length }} />
            </Text>
          </HStack>
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
        <DownloadButtons dataset={dataset} />
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
            <RecordsGrid key={dataset.id} datasetId={dataset.id} />
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
