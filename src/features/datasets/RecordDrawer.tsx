import { Box, Center, CloseButton, Drawer, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useGetRecordQuery } from './datasetsApi';

/** How null looks everywhere in the viewer: a word in italics, muted, never an empty cell. */
export function NullMark() {
  return (
    <Text as="span" fontStyle="italic" color="fg.muted" data-null="">
      null
    </Text>
  );
}

function FieldValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <NullMark />;
  if (typeof value === 'object') {
    return (
      <Box as="pre" textStyle="xs" fontFamily="mono" bg="bg.subtle" borderWidth="1px" rounded="md" p="2" whiteSpace="pre-wrap" wordBreak="break-word">
        {JSON.stringify(value, null, 2)}
      </Box>
    );
  }
  return (
    <Text textStyle="sm" whiteSpace="pre-wrap" wordBreak="break-word">
      {String(value)}
    </Text>
  );
}

/** Every field of one record, fetched by its id (the grid may show only some columns). */
export function RecordDrawer({ datasetId, recordId, onClose }: { datasetId: string; recordId: string | null; onClose: () => void }) {
  const intl = useIntl();
  const { data, isFetching, isError } = useGetRecordQuery({ datasetId, recordId: recordId ?? '' }, { skip: !recordId });
  return (
    <Drawer.Root open={!!recordId} onOpenChange={(d) => !d.open && onClose()} size={{ base: 'full', md: 'md' }} placement="end">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header borderBottomWidth="1px" pe="14">
              <Drawer.Title truncate>
                <FormattedMessage id="datasets.record.title" values={{ id: recordId ?? '' }} />
              </Drawer.Title>
            </Drawer.Header>
            <Drawer.Body py="4">
              {isFetching ? (
                <Center py="10">
                  <Spinner color="brand.solid" aria-label={intl.formatMessage({ id: 'datasets.record.loading' })} />
                </Center>
              ) : isError || !data ? (
                <Text color="fg.muted">
                  <FormattedMessage id="datasets.record.failed" />
                </Text>
              ) : (
                <Stack as="dl" gap="3">
                  {Object.entries(data).map(([name, value]) => (
                    <Box key={name}>
                      <Text as="dt" textStyle="xs" fontWeight="semibold" color="fg.muted">
                        {name}
                      </Text>
                      <Box as="dd" ms="0">
                        <FieldValue value={value} />
                      </Box>
                    </Box>
                  ))}
                </Stack>
              )}
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={intl.formatMessage({ id: 'datasets.record.close' })} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
