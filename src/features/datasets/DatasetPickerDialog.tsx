import { Box, Button, Dialog, Flex, Input, InputGroup, Portal, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { LuSearch } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { useListDatasetsQuery, type DatasetSummary } from './datasetsApi';

// A step's `dataset` param is chosen from the user's datasets (GET /datasets/), never typed as an id.

const PAGE_SIZE = 20;
/** The server's bound on `q` (DATASET_LIST_LIMITS.maxQueryLength). */
const MAX_FILTER = 200;
/** Typing settles before the list is asked for again. */
const FILTER_DELAY_MS = 250;

export interface DatasetPickerDialogProps {
  open: boolean;
  title: string;
  /** The current choice, shown selected. */
  chosenId: string | null;
  onChoose: (id: string) => void;
  onClose: () => void;
}

export function DatasetPickerDialog({ open, onClose, ...props }: DatasetPickerDialogProps) {
  const filterInput = useRef<HTMLInputElement>(null);
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => !d.open && onClose()}
      initialFocusEl={() => filterInput.current}
      placement="center"
      size="lg"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px={{ base: '0', md: '4' }}>
          <PickerContent onClose={onClose} filterInput={filterInput} {...props} />
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function PickerContent({
  title,
  chosenId,
  onChoose,
  onClose,
  filterInput,
}: Omit<DatasetPickerDialogProps, 'open'> & { filterInput: RefObject<HTMLInputElement | null> }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [filter, setFilter] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [picked, setPicked] = useState<DatasetSummary | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(filter.trim());
      setPage(1);
    }, FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [filter]);

  const { data, isLoading, isError, isFetching } = useListDatasetsQuery({ page, pageSize: PAGE_SIZE, q });
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  const selectedId = picked?.id ?? chosenId;

  const choose = (dataset: DatasetSummary | null) => {
    if (!dataset) return;
    onChoose(dataset.id);
  };
  const origin = (d: DatasetSummary) => (d.workflow_name ? t('datasets.picker.fromWorkflow', { workflow: d.workflow_name }) : t('datasets.picker.notFromRun'));

  return (
    <Dialog.Content>
      <Dialog.Header flexDirection="column" alignItems="flex-start" gap="1">
        <Dialog.Title>{title}</Dialog.Title>
        <Dialog.Description textStyle="sm" color="fg.muted">
          {t('datasets.picker.hint')}
        </Dialog.Description>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="3">
          <InputGroup startElement={<LuSearch aria-hidden />}>
            <Input
              ref={filterInput}
              size="sm"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              placeholder={t('datasets.picker.filterPlaceholder')}
              aria-label={t('datasets.picker.filter')}
              maxLength={MAX_FILTER}
            />
          </InputGroup>
          <Box
            minH="64"
            maxH="md"
            overflowY="auto"
            borderWidth="1px"
            borderColor="border.muted"
            rounded="lg"
            p="1"
            opacity={isFetching && !isLoading ? 0.7 : 1}
          >
            {isLoading ? (
              <Stack p="2" gap="2">
                {[0, 1, 2, 3].map((i) => (
                  <Skeleton key={i} h="9" />
                ))}
              </Stack>
            ) : isError && !data ? (
              <Text textStyle="sm" color="fg.error" p="4" textAlign="center">
                {t('datasets.picker.loadFailed')}
              </Text>
            ) : !data?.items.length ? (
              <Text textStyle="sm" color="fg.muted" p="4" textAlign="center">
                {q ? t('datasets.picker.noMatch', { filter: q }) : t('datasets.picker.empty')}
              </Text>
            ) : (
              <Stack as="ul" listStyleType="none" gap="0.5" aria-label={t('datasets.picker.list')}>
                {data.items.map((d) => {
                  const selected = d.id === selectedId;
                  return (
                    <li key={d.id}>
                      <Button
                        variant="ghost"
                        w="full"
                        h="auto"
                        py="2"
                        justifyContent="flex-start"
                        textAlign="start"
                        aria-pressed={selected}
                        bg={selected ? 'brand.subtle' : undefined}
                        color={selected ? 'brand.fg' : 'fg'}
                        onClick={() => setPicked(d)}
                        onDoubleClick={() => choose(d)}
                        aria-describedby={`dataset-${d.id}-details`}
                      >
                        <Stack gap="0" minW="0" align="flex-start">
                          <Text fontWeight="medium" truncate>
                            {d.name}
                          </Text>
                          <Text id={`dataset-${d.id}-details`} textStyle="xs" color="fg.muted" truncate>
                            {d.row_count === null
                              ? t('datasets.picker.detailsDeferred', { date: intl.formatDate(d.created_at, { dateStyle: 'medium' }), origin: origin(d) })
                              : t('datasets.picker.details', {
                                  rows: intl.formatNumber(d.row_count),
                                  date: intl.formatDate(d.created_at, { dateStyle: 'medium' }),
                                  origin: origin(d),
                                })}
                          </Text>
                        </Stack>
                      </Button>
                    </li>
                  );
                })}
              </Stack>
            )}
          </Box>
          {data && pages > 1 && (
            <Flex gap="2" align="center" justify="space-between">
              <Button size="xs" variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('common.previous')}
              </Button>
              <Text textStyle="xs" color="fg.muted">
                {t('common.pageOf', { page, pages })}
              </Text>
              <Button size="xs" variant="outline" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                {t('common.next')}
              </Button>
            </Flex>
          )}
        </Stack>
      </Dialog.Body>
      <Dialog.Footer gap="2" borderTopWidth="1px" borderColor="border.muted" pt="4">
        <Text flex="1" textStyle="sm" color={picked ? 'fg' : 'fg.muted'} truncate aria-live="polite">
          {picked ? t('files.picker.selected', { name: picked.name }) : t('datasets.picker.nothingSelected')}
        </Text>
        <Button variant="outline" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          colorPalette="brand"
          disabled={!picked}
          onClick={() => {
            choose(picked);
          }}
        >
          {t('datasets.picker.choose')}
        </Button>
      </Dialog.Footer>
    </Dialog.Content>
  );
}
