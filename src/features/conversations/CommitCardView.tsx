import { Badge, Box, Button, Card, Flex, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuCheck, LuGitCommitHorizontal, LuUndo2 } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { VersionedWrite } from '../workflows/versioning';
import type { CommitCard } from './conversationTypes';
import { useUndoCommit } from './useUndoCommit';

const changePalette: Record<CommitCard['changes'][number]['kind'], string> = {
  step_added: 'green',
  step_removed: 'red',
  step_updated: 'blue',
  connected: 'purple',
  disconnected: 'orange',
  variable_set: 'gray',
};

/**
 * A turn's edits as one workflow commit: what changed, and a one-click undo. A dry run's card is a
 * proposal instead, which `onApply` carries out.
 */
export function CommitCardView({
  commit,
  write,
  onApply,
  applyDisabled,
}: {
  commit: CommitCard;
  write?: VersionedWrite;
  onApply?: () => void;
  applyDisabled?: boolean;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { undoCommit, busy } = useUndoCommit(write);
  const [undone, setUndone] = useState(false);
  const applied = commit.applied && commit.commit_id !== null;

  const onUndo = async () => {
    if (commit.commit_id && (await undoCommit(commit.workflow_id, commit.commit_id))) setUndone(true);
  };

  return (
    <Card.Root data-testid="commit-card" size="sm" variant="outline" my="2" borderColor={applied ? 'border.success' : 'border.warning'}>
      <Card.Body gap="2" p="3">
        <Flex align="center" gap="2" wrap="wrap">
          <Box color={applied ? 'fg.success' : 'fg.warning'} aria-hidden>
            <LuGitCommitHorizontal />
          </Box>
          <Text textStyle="sm" fontWeight="semibold" flex="1" minW="0">
            {commit.summary}
          </Text>
          <Badge size="xs" variant="subtle" colorPalette={undone ? 'gray' : applied ? 'green' : 'orange'}>
            {t(undone ? 'chat.commit.undone' : applied ? 'chat.commit.applied' : 'chat.commit.proposal')}
          </Badge>
        </Flex>
        {commit.changes.length > 0 && (
          <Stack as="ul" gap="1" listStyleType="none" aria-label={t('chat.commit.changes')}>
            {commit.changes.map((change, index) => (
              <Flex as="li" key={`${change.kind}-${change.step_id ?? ''}-${index}`} gap="2" align="center" textStyle="xs">
                {/* The server's label is the whole sentence ("Added step Filter rows"): the kind is only a colour here. */}
                <Box
                  boxSize="2"
                  rounded="full"
                  flexShrink="0"
                  colorPalette={changePalette[change.kind]}
                  bg="colorPalette.solid"
                  title={t(`chat.change.${change.kind}`)}
                  aria-hidden
                />
                <Text lineClamp={1}>{change.label}</Text>
              </Flex>
            ))}
          </Stack>
        )}
        <Flex gap="2" justify="flex-end">
          {applied ? (
            <Button
              size="xs"
              variant="outline"
              loading={busy}
              disabled={undone}
              onClick={() => void onUndo()}
              aria-label={t('chat.commit.undoNamed', { summary: commit.summary })}
            >
              <LuUndo2 aria-hidden />
              {t('chat.commit.undo')}
            </Button>
          ) : (
            onApply && (
              <Button
                size="xs"
                colorPalette="brand"
                disabled={applyDisabled}
                onClick={onApply}
                aria-label={t('chat.commit.applyNamed', { summary: commit.summary })}
                title={t('chat.commit.applyHint')}
              >
                <LuCheck aria-hidden />
                {t('chat.commit.apply')}
              </Button>
            )
          )}
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}
