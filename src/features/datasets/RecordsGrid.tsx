import { Box, Button, Center, EmptyState, Flex, Text, chakra } from '@chakra-ui/react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { LuArrowDown, LuArrowUp, LuTable } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { cellText, kindOf, widthOf } from './columnTypes';
import { useGetDatasetQuery, type DatasetColumn, type RecordsFilter, type RecordsSort } from './datasetsApi';
import { FilterBar } from './FilterBar';
import { NullMark, RecordDrawer } from './RecordDrawer';
import { useRecordPages } from './useRecordPages';
import { rowWindow } from './windowing';

export const ROW_HEIGHT = 32;
const HEADER_HEIGHT = 36;
const OVERSCAN = 8;
const MIN_WIDTH = 60;
const MAX_WIDTH = 1200;
const KEY_STEP = 20;

type Widths = Record<string, number>;
const clampWidth = (width: number) => Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.round(width)));

/** The edge of a column header: dragged (or arrowed) to change the column's width. */
function ResizeHandle({ label, width, onResize }: { label: string; width: number; onResize: (width: number) => void }) {
  const start = (event: ReactPointerEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const fromX = event.clientX;
    const move = (e: PointerEvent) => onResize(clampWidth(width + e.clientX - fromX));
    const end = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
  };
  return (
    <chakra.div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width}
      aria-valuemin={MIN_WIDTH}
      aria-valuemax={MAX_WIDTH}
      tabIndex={0}
      position="absolute"
      top="0"
      right="0"
      h="full"
      w="6px"
      cursor="col-resize"
      _hover={{ bg: 'border.emphasized' }}
      _focusVisible={{ bg: 'colorPalette.focusRing', outline: 'none' }}
      onClick={(e) => e.stopPropagation()}
      onPointerDown={start}
      onKeyDown={(e) => {
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        e.preventDefault();
        e.stopPropagation();
        onResize(clampWidth(width + (e.key === 'ArrowRight' ? KEY_STEP : -KEY_STEP)));
      }}
    />
  );
}

/** none → ascending → descending → none, one column at a time. */
function nextSort(sort: RecordsSort | null, column: string): RecordsSort | null {
  if (sort?.column !== column) return { column, direction: 'asc' };
  return sort.direction === 'asc' ? { column, direction: 'desc' } : null;
}

function Cell({ value, column, width }: { value: unknown; column: DatasetColumn; width: number }) {
  const numeric = kindOf(column.type) === 'number';
  return (
    <Box
      role="gridcell"
      flex="none"
      w={`${width}px`}
      px="3"
      truncate
      textAlign={numeric ? 'end' : 'start'}
      fontFamily={column.name === '_id' || numeric ? 'mono' : undefined}
      textStyle="sm"
    >
      {value === null || value === undefined ? <NullMark /> : cellText(value)}
    </Box>
  );
}

/**
 * A dataset's records in a virtual grid: only the rows in view are in the DOM, pages of 200 are
 * fetched as they scroll into view, a header click sorts, the filter bar filters, a row opens the
 * whole record. Self-contained (only `datasetId`), so the editor's run panel can show it too.
 */
/** What the grid shows: its sort and filters (every column). */
export interface GridView {
  sort: RecordsSort | null;
  filters: RecordsFilter[];
}

export function RecordsGrid({
  datasetId,
  height = 520,
  onViewChange,
}: {
  datasetId: string;
  /** Pixels of the scrolled area. */
  height?: number;
  /** Told of each new sort or filter (the page's download takes what is shown). */
  onViewChange?: (view: GridView) => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const { data: dataset } = useGetDatasetQuery(datasetId);
  const [sort, setSort] = useState<RecordsSort | null>(null);
  const [filters, setFilters] = useState<RecordsFilter[]>([]);
  const [scrollTop, setScrollTop] = useState(0);
  const [openRecord, setOpenRecord] = useState<string | null>(null);
  const { total, failed, ensureRows, rowAt, retry } = useRecordPages(datasetId, sort, filters);
  const columns = useMemo(() => dataset?.columns ?? [], [dataset]);
  const [widths, setWidths] = useState<Widths>({});
  const widthFor = (c: DatasetColumn) => widths[c.name] ?? widthOf(c.name, c.type);
  const rowWidth = columns.reduce((sum, c) => sum + widthFor(c), 0);

  const scroller = useRef<HTMLDivElement>(null);
  // A new query starts at the top.
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
    setScrollTop(0);
  }, [sort, filters]);
  useEffect(() => onViewChange?.({ sort, filters }), [onViewChange, sort, filters]);

  const win = rowWindow({ total: total ?? 0, rowHeight: ROW_HEIGHT, viewportHeight: height - HEADER_HEIGHT, scrollTop, overscan: OVERSCAN });
  useEffect(() => {
    if (total) ensureRows(win.first, win.last - 1);
  }, [total, win.first, win.last, ensureRows]);

  if (!dataset) return null;

  const onHeaderKey = (event: KeyboardEvent, column: string) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      setSort(nextSort(sort, column));
    }
  };

  const rows = [];
  for (let index = win.first; index < win.last; index++) {
    const record = rowAt(index);
    const id = record ? String(record._id) : null;
    rows.push(
      <Flex
        key={index}
        role="row"
        aria-rowindex={index + 2}
        position="absolute"
        left="0"
        top={`${win.topOf(index)}px`}
        h={`${ROW_HEIGHT}px`}
        w={`${rowWidth}px`}
        align="center"
        borderBottomWidth="1px"
        borderColor="border.muted"
        bg={index % 2 ? 'bg.subtle' : 'bg'}
        cursor={id ? 'pointer' : 'default'}
        _hover={id ? { bg: 'bg.muted' } : undefined}
        tabIndex={id ? 0 : -1}
        onClick={() => id && setOpenRecord(id)}
        onKeyDown={(e) => id && e.key === 'Enter' && setOpenRecord(id)}
      >
        {record ? (
          columns.map((c) => <Cell key={c.name} column={c} width={widthFor(c)} value={record[c.name]} />)
        ) : (
          <Box role="gridcell" px="3" color="fg.muted" textStyle="sm">
            <FormattedMessage id="datasets.grid.loadingRow" />
          </Box>
        )}
      </Flex>,
    );
  }

  return (
    <Flex direction="column" gap="3" minW="0">
      <FilterBar columns={columns} filters={filters} onChange={setFilters} />
      <Text textStyle="xs" color="fg.muted" aria-live="polite">
        {total === null ? <FormattedMessage id="datasets.grid.loading" /> : <FormattedMessage id="datasets.grid.matching" values={{ count: total }} />}
      </Text>
      {failed && total === null ? (
        <EmptyState.Root borderWidth="1px" rounded="lg">
          <EmptyState.Content>
            <EmptyState.Description>
              <FormattedMessage id="datasets.grid.failed" />
            </EmptyState.Description>
            <Button size="sm" variant="outline" onClick={retry}>
              <FormattedMessage id="datasets.grid.retry" />
            </Button>
          </EmptyState.Content>
        </EmptyState.Root>
      ) : total === 0 ? (
        <EmptyState.Root borderWidth="1px" rounded="lg">
          <EmptyState.Content>
            <EmptyState.Indicator>
              <LuTable />
            </EmptyState.Indicator>
            <EmptyState.Title>{filters.length ? t('datasets.grid.noMatches') : t('datasets.grid.empty')}</EmptyState.Title>
            {filters.length > 0 && (
              <Button size="sm" variant="outline" onClick={() => setFilters([])}>
                <FormattedMessage id="datasets.filter.clear" />
              </Button>
            )}
          </EmptyState.Content>
        </EmptyState.Root>
      ) : (
        <Box
          role="grid"
          aria-label={t('datasets.grid.label', { name: dataset.name })}
          aria-rowcount={(total ?? 0) + 1}
          aria-colcount={columns.length}
          h={`${height}px`}
          overflow="auto"
          borderWidth="1px"
          rounded="lg"
          bg="bg"
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
          data-testid="records-scroller"
          ref={scroller}
        >
          <Flex
            role="row"
            aria-rowindex={1}
            position="sticky"
            top="0"
            zIndex="1"
            h={`${HEADER_HEIGHT}px`}
            w={`${rowWidth}px`}
            minW="full"
            bg="bg.muted"
            borderBottomWidth="1px"
            align="center"
          >
            {columns.map((c) => {
              const direction = sort?.column === c.name ? sort.direction : null;
              return (
                <chakra.div
                  key={c.name}
                  role="columnheader"
                  aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}
                  tabIndex={0}
                  flex="none"
                  w={`${widthFor(c)}px`}
                  position="relative"
                  px="3"
                  display="flex"
                  alignItems="center"
                  gap="1"
                  cursor="pointer"
                  userSelect="none"
                  fontWeight="semibold"
                  textStyle="sm"
                  color="fg"
                  title={t('datasets.grid.sortHint', { column: c.name, type: c.type })}
                  onClick={() => setSort(nextSort(sort, c.name))}
                  onKeyDown={(e) => onHeaderKey(e, c.name)}
                  _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '-2px' }}
                >
                  <chakra.span truncate>{c.name}</chakra.span>
                  {direction === 'asc' && <LuArrowUp aria-hidden />}
                  {direction === 'desc' && <LuArrowDown aria-hidden />}
                  <ResizeHandle
                    label={t('datasets.grid.resize', { column: c.name })}
                    width={widthFor(c)}
                    onResize={(width) => setWidths((w) => ({ ...w, [c.name]: width }))}
                  />
                </chakra.div>
              );
            })}
          </Flex>
          <Box position="relative" h={`${win.bodyHeight}px`} w={`${rowWidth}px`} role="rowgroup">
            {total === null ? (
              <Center h="20" color="fg.muted">
                <FormattedMessage id="datasets.grid.loading" />
              </Center>
            ) : (
              rows
            )}
          </Box>
        </Box>
      )}
      <RecordDrawer datasetId={datasetId} recordId={openRecord} onClose={() => setOpenRecord(null)} />
    </Flex>
  );
}
