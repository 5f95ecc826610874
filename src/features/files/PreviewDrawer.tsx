import { Box, Button, Center, chakra, CloseButton, Drawer, EmptyState, HStack, Image, Portal, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { LuDownload, LuEyeOff, LuWorkflow } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { RelativeTime } from '../../components/RelativeTime';
import { useLocale } from '../../i18n/useLocale';
import { parseCsv, type CsvPreview } from './csv';
import type { FileEntry } from './filesApi';
import { formatBytes, previewKind, type PreviewKind } from './format';
import { importStepFor } from './importStep';
import { fetchFileBlob } from './transfer';

// A side panel with the file's details and a look inside: images, PDF (object URL in an iframe),
// text, and the first rows of CSV read from a Range request of the first 64 KB.

export const CSV_PREVIEW_BYTES = 64 * 1024;
const TEXT_PREVIEW_BYTES = 256 * 1024;
const CSV_PREVIEW_ROWS = 50;

type Loaded =
  { kind: 'image'; url: string } | { kind: 'pdf'; url: string } | { kind: 'text'; text: string; truncated: boolean } | { kind: 'csv'; csv: CsvPreview };

function usePreview(file: FileEntry | null, kind: PreviewKind) {
  const [state, setState] = useState<{ loading: boolean; loaded: Loaded | null; failed: boolean }>({ loading: false, loaded: null, failed: false });
  useEffect(() => {
    if (!file || kind === 'none') {
      setState({ loading: false, loaded: null, failed: false });
      return;
    }
    const controller = new AbortController();
    let url: string | null = null;
    setState({ loading: true, loaded: null, failed: false });
    (async () => {
      if (kind === 'image' || kind === 'pdf') {
        const blob = await fetchFileBlob(file.id, { signal: controller.signal });
        // The server's sniffed type, so the browser shows it instead of offering a download.
        url = URL.createObjectURL(new Blob([blob], { type: file.content_type }));
        return { kind, url } as Loaded;
      }
      const limit = kind === 'csv' ? CSV_PREVIEW_BYTES : TEXT_PREVIEW_BYTES;
      const blob = await fetchFileBlob(file.id, { bytes: Math.min(limit, Math.max(file.size, 1)), signal: controller.signal });
      const complete = file.size <= limit;
      // A cut may fall inside a UTF-8 sequence: the decoder's replacement char is only at the end.
      const text = new TextDecoder('utf-8').decode(await blob.arrayBuffer());
      if (kind === 'csv') return { kind, csv: parseCsv(text, { maxRows: CSV_PREVIEW_ROWS, complete }) } as Loaded;
      return { kind: 'text', text, truncated: !complete } as Loaded;
    })().then(
      (loaded) => !controller.signal.aborted && setState({ loading: false, loaded, failed: false }),
      () => !controller.signal.aborted && setState({ loading: false, loaded: null, failed: true }),
    );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [file, kind]);
  return state;
}

export function CsvTable({ csv }: { csv: CsvPreview }) {
  const intl = useIntl();
  const [header, ...rows] = csv.rows;
  if (!header) return null;
  const width = Math.max(...csv.rows.map((r) => r.length));
  const cols = Array.from({ length: width }, (_, i) => i);
  return (
    <Stack gap="2">
      <Table.ScrollArea borderWidth="1px" rounded="lg" maxH="60vh">
        <Table.Root size="sm" stickyHeader showColumnBorder aria-label={intl.formatMessage({ id: 'files.preview.csvLabel' })}>
          <Table.Header>
            <Table.Row bg="bg.subtle">
              {cols.map((i) => (
                <Table.ColumnHeader key={i} whiteSpace="nowrap">
                  {header[i] ?? ''}
                </Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row, r) => (
              <Table.Row key={r}>
                {cols.map((i) => (
                  <Table.Cell key={i} whiteSpace="nowrap" maxW="64" truncate>
                    {row[i] ?? ''}
                  </Table.Cell>
                ))}
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <Text textStyle="xs" color="fg.muted">
        <FormattedMessage id={csv.truncated ? 'files.preview.firstRows' : 'files.preview.allRows'} values={{ count: rows.length }} />
      </Text>
    </Stack>
  );
}

function PreviewBody({ file }: { file: FileEntry }) {
  const intl = useIntl();
  const kind = previewKind(file.name, file.content_type);
  const { loading, loaded, failed } = usePreview(file, kind);
  if (kind === 'none' || failed) {
    return (
      <EmptyState.Root size="sm" borderWidth="1px" borderStyle="dashed" rounded="lg">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <LuEyeOff />
          </EmptyState.Indicator>
          <EmptyState.Description>
            <FormattedMessage id={failed ? 'files.preview.failed' : 'files.preview.notAvailable'} />
          </EmptyState.Description>
        </EmptyState.Content>
      </EmptyState.Root>
    );
  }
  if (loading || !loaded) {
    return (
      <Center py="12">
        <Spinner color="brand.solid" aria-label={intl.formatMessage({ id: 'files.preview.loading' })} />
      </Center>
    );
  }
  if (loaded.kind === 'image') return <Image src={loaded.url} alt={file.name} maxH="70vh" mx="auto" rounded="md" bg="bg.muted" />;
  if (loaded.kind === 'pdf') return <chakra.iframe src={loaded.url} title={file.name} w="full" h="70vh" borderWidth="1px" rounded="md" />;
  if (loaded.kind === 'csv') return <CsvTable csv={loaded.csv} />;
  return (
    <Stack gap="2">
      <Box
        as="pre"
        textStyle="xs"
        fontFamily="mono"
        bg="bg.subtle"
        borderWidth="1px"
        rounded="lg"
        p="3"
        maxH="60vh"
        overflow="auto"
        whiteSpace="pre-wrap"
        wordBreak="break-word"
      >
        {loaded.text}
      </Box>
      {loaded.truncated && (
        <Text textStyle="xs" color="fg.muted">
          <FormattedMessage id="files.preview.textTruncated" />
        </Text>
      )}
    </Stack>
  );
}

export function PreviewDrawer({
  file,
  onClose,
  onDownload,
  onUseInWorkflow,
}: {
  file: FileEntry | null;
  onClose: () => void;
  onDownload: (file: FileEntry) => void;
  onUseInWorkflow: (file: FileEntry) => void;
}) {
  const locale = useLocale();
  const intl = useIntl();
  return (
    <Drawer.Root open={!!file} onOpenChange={(d) => !d.open && onClose()} size={{ base: 'full', md: 'lg' }} placement="end">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            {file && (
              <>
                <Drawer.Header borderBottomWidth="1px" pe="14">
                  <Stack gap="0.5" minW="0">
                    <Drawer.Title truncate>{file.name}</Drawer.Title>
                    <Text textStyle="xs" color="fg.muted">
                      {formatBytes(file.size, locale)} · {file.content_type} · <RelativeTime value={file.updated_at} />
                    </Text>
                  </Stack>
                </Drawer.Header>
                <Drawer.Body py="4">
                  <PreviewBody file={file} />
                </Drawer.Body>
                <Drawer.Footer borderTopWidth="1px" justifyContent="flex-start">
                  <HStack gap="2" wrap="wrap">
                    {importStepFor(file.name) && (
                      <Button colorPalette="brand" size="sm" onClick={() => onUseInWorkflow(file)}>
                        <LuWorkflow aria-hidden />
                        <FormattedMessage id="files.action.useInWorkflow" />
                      </Button>
                    )}
                    <Button variant="outline" size="sm" onClick={() => onDownload(file)}>
                      <LuDownload aria-hidden />
                      <FormattedMessage id="files.action.download" />
                    </Button>
                  </HStack>
                </Drawer.Footer>
                <Drawer.CloseTrigger asChild>
                  <CloseButton size="sm" aria-label={intl.formatMessage({ id: 'files.close' })} />
                </Drawer.CloseTrigger>
              </>
            )}
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
