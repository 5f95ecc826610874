import { Button, Center, Flex, Spinner, Text } from '@chakra-ui/react';
import { useCallback, useState } from 'react';
import { LuMessageSquarePlus } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { LocaleLink } from '../../i18n/LocaleLink';
import type { VersionedWrite } from '../workflows/versioning';
import { useCreateConversationMutation, useListConversationsQuery } from './conversationsApi';
import { ConversationView } from './ConversationView';

/**
 * The editor's assistant tab: the workflow's coordinator conversation (its newest), created with
 * the first message. Its edits arrive as commits the canvas shows at once, each undoable here.
 */
export function ChatPanel({ workflowId, write }: { workflowId: string; write?: VersionedWrite }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { data, isLoading } = useListConversationsQuery({ workflowId, agent: 'coordinator', page: 1, pageSize: 1 });
  const [create] = useCreateConversationMutation();
  // Set by "New chat" (null: start afresh) and by the first message's creation.
  const [chosen, setChosen] = useState<{ id: string | null } | null>(null);
  // A new chat is a new view; the first message's creation is not (that would stop its stream).
  const [session, setSession] = useState(0);
  const conversationId = chosen ? chosen.id : (data?.items[0]?.id ?? null);

  const ensureConversation = useCallback(async () => {
    try {
      const conversation = await create({ agent: 'coordinator', workflow_id: workflowId }).unwrap();
      setChosen({ id: conversation.id });
      return conversation.id;
    } catch {
      return null; // The notices say why.
    }
  }, [create, workflowId]);

  if (isLoading) {
    return (
      <Center py="8">
        <Spinner size="sm" />
      </Center>
    );
  }
  return (
    <Flex direction="column" flex="1" minH="0" gap="2" py="2">
      <Flex justify="space-between" align="center" gap="2">
        <Text textStyle="xs" color="fg.muted">
          {t('chat.panel.hint')}
        </Text>
        <Flex gap="1" flexShrink="0">
          {conversationId && (
            <Button asChild size="2xs" variant="ghost">
              <LocaleLink to={`/conversations/${conversationId}`}>{t('chat.panel.openFull')}</LocaleLink>
            </Button>
          )}
          <Button
            size="2xs"
            variant="ghost"
            onClick={() => {
              setChosen({ id: null });
              setSession((n) => n + 1);
            }}
            disabled={!conversationId}
            aria-label={t('chat.newChat')}
          >
            <LuMessageSquarePlus aria-hidden />
          </Button>
        </Flex>
      </Flex>
      <ConversationView
        key={session}
        conversationId={conversationId}
        ensureConversation={ensureConversation}
        write={write}
        canDryRun
        emptyText={t('chat.panel.empty')}
      />
    </Flex>
  );
}
