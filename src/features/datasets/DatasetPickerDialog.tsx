import { Button, Dialog, Input, InputGroup, Portal, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { LuSearch } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { PickerList } from '../../components/PickerList/PickerList';
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
          <PickerList
            label={t('datasets.picker.list')}
            minH="64"
            items={data?.items ?? []}
            itemKey={(d) => d.id}
            row={(d) => ({
              name: d.name,
              detail:
                d.row_count === null
                  ? t('datasets.picker.detailsDeferred', { date: intl.formatDate(d.created_at, { dateStyle: 'medium' }), origin: origin(d) })
                  : t('datasets.picker.details', {
                      rows: intl.formatNumber(d.row_count),
                      date: intl.formatDate(d.created_at, { dateStyle: 'medium' }),
                      origin: origin(d),
                    }),
            })}
            isSelected={(d) => d.id === selectedId}
            onActivate={setPicked}
            onChoose={choose}
            isLoading={isLoading}
            isFetching={isFetching}
            error={
              isError &&
              !data && (
                <Text textStyle="sm" color="fg.error" p="4" textAlign="center">
                  {t('datasets.picker.loadFailed')}
                </Text>
              )
            }
            emptyText={q ? t('datasets.picker.noMatch', { filter: q }) : t('datasets.picker.empty')}
            page={page}
            pages={pages}
            onPageChange={setPage}
          />
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
