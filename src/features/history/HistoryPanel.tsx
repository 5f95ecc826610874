import { Badge, Box, Button, Center, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuHistory } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { RelativeTime } from '../../components/RelativeTime';
import { useListCommitsQuery, useRestoreCommitMutation, type Commit } from './historyApi';
import type { VersionedWrite as Write } from '../workflows/versioning';

const kindPalette: Record<Commit['kind'], string> = { create: 'green', edit: 'gray', undo: 'orange', redo: 'blue', restore: 'purple' };

/** Every change to the workflow, newest first; any earlier one can be brought back (as a new change). */
export function HistoryPanel({ workflowId, currentVersion, write }: { workflowId: string; currentVersion: number; write: Write }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { data, isLoading } = useListCommitsQuery({ workflowId });
  const [restore, { isLoading: restoring }] = useRestoreCommitMutation();
  const [toRestore, setToRestore] = useState<Commit | null>(null);

  const confirm = async () => {
    if (!toRestore) return;
    const commitId = toRestore.id;
    await write((version) => restore({ workflowId, commitId, version }));
    setToRestore(null);
  };

  if (isLoading) {
    return (
      <Center py="8">
        <Spinner size="sm" />
      </Center>
    );
  }
  return (
    <>
      <Stack as="ol" gap="0" listStyleType="none" aria-label={t('history.title')}>
        {data?.items.map((commit, index) => (
          <Flex
            as="li"
            key={commit.id}
            gap="3"
            py="2.5"
            borderBottomWidth={index < data.items.length - 1 ? '1px' : 0}
            borderColor="border.muted"
            align="flex-start"
          >
            <Box pt="1" color={commit.seq === currentVersion ? 'brand.fg' : 'fg.subtle'}>
              <LuHistory aria-hidden />
            </Box>
            <Box flex="1" minW="0">
              <Text textStyle="sm" fontWeight="medium" lineClamp={2}>
                {commit.message}
              </Text>
              <Text textStyle="xs" color="fg.muted">
                #{commit.seq} · {commit.author?.name ?? t('history.system')} · <RelativeTime value={commit.created_at} />
              </Text>
              <Flex gap="1.5" mt="1" align="center">
                <Badge size="xs" colorPalette={kindPalette[commit.kind]} variant="subtle">
                  {t(`history.kind.${commit.kind}`)}
                </Badge>
                {commit.seq === currentVersion && (
                  <Badge size="xs" colorPalette="brand" variant="solid">
                    {t('history.current')}
                  </Badge>
                )}
              </Flex>
            </Box>
            {commit.seq !== currentVersion && (
              <Button size="2xs" variant="outline" onClick={() => setToRestore(commit)} aria-label={t('history.restoreNamed', { seq: commit.seq })}>
                {t('history.restore')}
              </Button>
            )}
          </Flex>
        ))}
      </Stack>
      <ConfirmDialog
        open={toRestore !== null}
        title={t('history.restoreConfirm.title')}
        body={t('history.restoreConfirm.body', { seq: toRestore?.seq ?? 0, message: toRestore?.message ?? '' })}
        confirmLabel={t('history.restore')}
        loading={restoring}
        onConfirm={confirm}
        onCancel={() => setToRestore(null)}
      />
    </>
  );
}
