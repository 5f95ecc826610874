import { Badge, Box, Button, Flex, HStack, NativeSelect, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useCompareDatasetsQuery, useGetDatasetQuery, useGetSiblingsQuery, type CompareOut, type CompareShow, type DatasetOut } from './datasetsApi';

/** Differences per page: well under the server's bound (200). */
export const COMPARE_PAGE_SIZE = 50;
const SHOWS: CompareShow[] = ['all', 'added', 'removed', 'changed'];
type Difference = CompareOut['items'][number];

/** A value as one line of text: null as “null”, objects and lists as JSON. */
const shown = (value: unknown) => (value === null || value === undefined ? 'null' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** A 422 answers why the key cannot be used; anything else is a plain failure. */
function failureText(error: unknown, fallback: string): string {
  const data = (error as { data?: { errors?: { msg?: unknown }[]; detail?: unknown } } | undefined)?.data;
  const msg = data?.errors?.[0]?.msg ?? data?.detail;
  return typeof msg === 'string' ? msg : fallback;
}

// Colours are Chakra's semantic palette tokens (`*.subtle` behind `*.fg`), which keep AA contrast
// in light and dark mode alike.
const statusPalette = { added: 'green', removed: 'red', changed: 'orange' } as const;

function Counts({ counts }: { counts: CompareOut['counts'] }) {
  return (
    <HStack gap="2" wrap="wrap" role="list" aria-label={useIntl().formatMessage({ id: 'datasets.compare.counts' })}>
      {(['added', 'removed', 'changed', 'unchanged'] as const).map((kind) => (
        <Badge key={kind} role="listitem" size="lg" variant="subtle" colorPalette={kind === 'unchanged' ? 'gray' : statusPalette[kind]}>
          <FormattedMessage id={`datasets.compare.count.${kind}`} values={{ count: counts[kind] }} />
        </Badge>
      ))}
    </HStack>
  );
}

function SchemaChanges({ schema }: { schema: CompareOut['schema'] }) {
  const intl = useIntl();
  const lines = [
    ...schema.added.map((c) => intl.formatMessage({ id: 'datasets.compare.schema.added' }, { column: c.name, type: c.type })),
    ...schema.removed.map((c) => intl.formatMessage({ id: 'datasets.compare.schema.removed' }, { column: c.name, type: c.type })),
    ...schema.type_changed.map((c) => intl.formatMessage({ id: 'datasets.compare.schema.typeChanged' }, { column: c.name, before: c.before, after: c.after })),
  ];
  return (
    <Stack gap="1" textStyle="sm" aria-label={intl.formatMessage({ id: 'datasets.compare.schema.label' })} role="list">
      {lines.length === 0 ? (
        <Text color="fg.muted" role="listitem">
          <FormattedMessage id="datasets.compare.schema.same" />
        </Text>
      ) : (
        lines.map((line) => (
          <Text key={line} role="listitem">
            {line}
          </Text>
        ))
      )}
    </Stack>
  );
}

function DifferenceCells({ item }: { item: Difference }) {
  if (item.status !== 'changed') {
    const record = Object.entries(item.record ?? {}).filter(([name]) => name !== '_id');
    return (
      <Text fontFamily="mono" textStyle="xs" color="fg.muted" lineClamp={2}>
        {record.map(([name, value]) => `${name}: ${shown(value)}`).join(' · ')}
      </Text>
    );
  }
  return (
    <Flex gap="1.5" wrap="wrap">
      {item.changes.map((change) => (
        <HStack key={change.column} gap="1" fontFamily="mono" textStyle="xs" borderWidth="1px" borderColor="border" rounded="sm" px="1.5" py="0.5">
          <Text fontWeight="semibold">{change.column}</Text>
          <Text as="del" bg="red.subtle" color="red.fg" px="1" rounded="xs">
            {shown(change.before)}
          </Text>
          <Text aria-hidden>→</Text>
          <Text as="ins" bg="green.subtle" color="green.fg" px="1" rounded="xs" textDecoration="none">
            {shown(change.after)}
          </Text>
        </HStack>
      ))}
    </Flex>
  );
}

function DifferencesTable({ result, onPage }: { result: CompareOut; onPage: (page: number) => void }) {
  const intl = useIntl();
  const pages = Math.max(1, Math.ceil(result.total / result.page_size));
  if (result.total === 0) {
    return (
      <Text color="fg.muted">
        <FormattedMessage id="datasets.compare.noDifferences" />
      </Text>
    );
  }
  return (
    <Stack gap="2">
      <Table.Root size="sm" variant="outline" aria-label={intl.formatMessage({ id: 'datasets.compare.table' })}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader>
              <FormattedMessage id="datasets.compare.status" />
            </Table.ColumnHeader>
            <Table.ColumnHeader>
              <FormattedMessage id="datasets.compare.key" />
            </Table.ColumnHeader>
            <Table.ColumnHeader>
              <FormattedMessage id="datasets.compare.changes" />
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {result.items.map((item) => (
            <Table.Row key={`${item.status}-${shown(item.key)}`}>
              <Table.Cell>
                <Badge variant="subtle" colorPalette={statusPalette[item.status]}>
                  <FormattedMessage id={`datasets.compare.status.${item.status}`} />
                </Badge>
              </Table.Cell>
              <Table.Cell fontFamily="mono">{shown(item.key)}</Table.Cell>
              <Table.Cell>
                <DifferenceCells item={item} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
      {pages > 1 && (
        <HStack gap="2" justify="end">
          <Button size="xs" variant="outline" disabled={result.page <= 1} onClick={() => onPage(result.page - 1)}>
            <FormattedMessage id="datasets.compare.previous" />
          </Button>
          <Text textStyle="sm" color="fg.muted">
            <FormattedMessage id="datasets.compare.page" values={{ page: result.page, pages }} />
          </Text>
          <Button size="xs" variant="outline" disabled={result.page >= pages} onClick={() => onPage(result.page + 1)}>
            <FormattedMessage id="datasets.compare.next" />
          </Button>
        </HStack>
      )}
    </Stack>
  );
}

/**
 * The "Compare" tab: this dataset against another output of the same step (an earlier run, a
 * sample), matched by a key column the user picks among the columns both have.
 */
export function CompareView({ dataset }: { dataset: DatasetOut }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const siblings = useGetSiblingsQuery(dataset.id);
  const [withId, setWithId] = useState('');
  const [key, setKey] = useState('');
  const [show, setShow] = useState<CompareShow>('all');
  const [page, setPage] = useState(1);
  const other = useGetDatasetQuery(withId, { skip: !withId });
  const otherNames = new Set(other.data?.columns.map((c) => c.name) ?? []);
  const keyColumns = other.data ? dataset.columns.filter((c) => otherNames.has(c.name)) : [];
  const ready = Boolean(withId && key && other.data && otherNames.has(key));
  const comparison = useCompareDatasetsQuery({ datasetId: dataset.id, withId, key, page, pageSize: COMPARE_PAGE_SIZE, show }, { skip: !ready });

  if (siblings.isLoading) return <Spinner color="brand.solid" />;
  const choices = siblings.data?.items ?? [];
  if (choices.length === 0) {
    return (
      <Text color="fg.muted">
        <FormattedMessage id={siblings.isError ? 'datasets.compare.siblingsFailed' : 'datasets.compare.none'} />
      </Text>
    );
  }

  return (
    <Stack gap="4">
      <Flex gap="2" wrap="wrap" align="center">
        <NativeSelect.Root size="sm" width="auto">
          <NativeSelect.Field
            aria-label={t('datasets.compare.with')}
            value={withId}
            onChange={(e) => {
              setWithId(e.target.value);
              setPage(1);
            }}
          >
            <option value="">{t('datasets.compare.with')}</option>
            {choices.map((d) => (
              <option key={d.id} value={d.id}>
                {intl.formatMessage(
                  { id: d.row_count === null ? 'datasets.compare.siblingDeferred' : 'datasets.compare.sibling' },
                  { name: d.name, date: intl.formatDate(d.created_at, { dateStyle: 'medium', timeStyle: 'short' }), count: d.row_count },
                )}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <NativeSelect.Root size="sm" width="auto" disabled={!other.data}>
          <NativeSelect.Field
            aria-label={t('datasets.compare.keyColumn')}
            value={key}
            onChange={(e) => {
              setKey(e.target.value);
              setPage(1);
            }}
          >
            <option value="">{t('datasets.compare.keyColumn')}</option>
            {keyColumns.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <NativeSelect.Root size="sm" width="auto">
          <NativeSelect.Field
            aria-label={t('datasets.compare.show')}
            value={show}
            onChange={(e) => {
              setShow(e.target.value as CompareShow);
              setPage(1);
            }}
          >
            {SHOWS.map((s) => (
              <option key={s} value={s}>
                {t(`datasets.compare.show.${s}`)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Flex>
      {withId && other.isError && (
        <Text color="fg.error" role="alert">
          {failureText(other.error, t('datasets.compare.failed'))}
        </Text>
      )}
      {!ready ? (
        <Text color="fg.muted">
          <FormattedMessage id="datasets.compare.hint" />
        </Text>
      ) : comparison.isFetching && !comparison.data ? (
        <Spinner color="brand.solid" />
      ) : comparison.isError ? (
        <Text color="fg.error" role="alert">
          {failureText(comparison.error, t('datasets.compare.failed'))}
        </Text>
      ) : comparison.data ? (
        <Stack gap="4">
          <Counts counts={comparison.data.counts} />
          <Box>
            <SchemaChanges schema={comparison.data.schema} />
          </Box>
          <DifferencesTable result={comparison.data} onPage={setPage} />
        </Stack>
      ) : null}
    </Stack>
  );
}
