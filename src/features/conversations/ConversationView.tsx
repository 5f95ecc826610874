import { Box, Center, Spinner, Stack, Text } from '@chakra-ui/react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import type { VersionedWrite } from '../workflows/versioning';
import { Composer } from './Composer';
import { useApplyProposalMutation, useGetConversationQuery } from './conversationsApi';
import type { ConversationMessageOut } from './conversationTypes';
import { MessageItem } from './MessageItem';
import { useChatTurn } from './useChatTurn';

export interface ConversationViewProps {
  /** Null: a conversation not created yet; `ensureConversation` creates it with the first message. */
  conversationId: string | null;
  ensureConversation?: () => Promise<string | null>;
  /** The editor's versioned writes, for the commit cards' undo. */
  write?: VersionedWrite;
  /** The coordinator edits workflows: offer "propose only" (dry run) and apply. */
  canDryRun?: boolean;
  /** Shown while the conversation has no message. */
  emptyText: string;
  /** Messages only, no composer. */
  readOnly?: boolean;
}

/** A conversation's messages (a live log) and the composer; shared by the editor's chat and the conversations page. */
export function ConversationView({ conversationId, ensureConversation, write, canDryRun, emptyText, readOnly }: ConversationViewProps) {
  const intl = useIntl();
  const { data, isLoading } = useGetConversationQuery(conversationId ?? skipToken);
  const { live, streaming, send, stop } = useChatTurn(conversationId, ensureConversation);
  const [dryRun, setDryRun] = useState(false);
  const [applyProposal, { isLoading: applying }] = useApplyProposalMutation();
  const end = useRef<HTMLDivElement>(null);

  const messages = useMemo(() => {
    const stored = data?.messages ?? [];
    const ids = new Set(stored.map((m) => m.id));
    return [...stored, ...live.filter((m) => !ids.has(m.id))];
  }, [data?.messages, live]);
  const streamingId = streaming ? live[live.length - 1]?.id : undefined;

  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [messages]);

  /** A proposal is applied as it was shown: the server writes the edits it kept, as one commit. */
  const applyOf = (message: ConversationMessageOut) => {
    const commit = message.commit;
    if (!commit || commit.applied || !conversationId) return undefined;
    return () => void applyProposal({ conversationId, messageId: message.id, workflowId: commit.workflow_id });
  };

  return (
    <Stack flex="1" minH="0" gap="3">
      <Box
        role="log"
        aria-live="polite"
        aria-relevant="additions text"
        aria-busy={streaming}
        aria-label={intl.formatMessage({ id: 'chat.log' })}
        flex="1"
        minH="32"
        overflowY="auto"
        tabIndex={0}
      >
        {isLoading ? (
          <Center py="8">
            <Spinner size="sm" />
          </Center>
        ) : messages.length === 0 ? (
          <Text textStyle="sm" color="fg.muted" py="4">
            {emptyText}
          </Text>
        ) : (
          <Stack gap="3" py="2">
            {messages.map((message) => (
              <MessageItem
                key={message.id}
                message={message}
                streaming={message.id === streamingId}
                write={write}
                onApply={applyOf(message)}
                applyDisabled={streaming || applying}
              />
            ))}
          </Stack>
        )}
        <div ref={end} />
      </Box>
      {!readOnly && (
        <Composer
          streaming={streaming}
          onSend={(content) => send(content, { dryRun: canDryRun && dryRun })}
          onStop={stop}
          dryRun={canDryRun ? { value: dryRun, onChange: setDryRun } : undefined}
        />
      )}
    </Stack>
  );
}
