import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { baseApi } from '../../services/baseApi';
import { streamMessage } from './chatStream';
import { conversationsApi } from './conversationsApi';
import type { ConversationMessageOut } from './conversationTypes';
import { applyStreamEvent, emptyMessage } from './liveMessage';
import { workflowEditTags } from './workflowEditTags';

export interface ChatTurn {
  /** The user's message and the answer streaming in; empty between turns. */
  live: ConversationMessageOut[];
  streaming: boolean;
  /** Sends one message; answers whether the server took it (false: the text stays in the composer). */
  send: (content: string, options?: { dryRun?: boolean }) => Promise<boolean>;
  /** Aborts the request: the server stops the model and keeps the partial answer, as we do. */
  stop: () => void;
}

/**
 * One conversation's turns. `conversationId` null: `ensureConversation` creates it on the first
 * message (the editor's chat does not create empty conversations by opening its tab).
 */
export function useChatTurn(conversationId: string | null, ensureConversation?: () => Promise<string | null>): ChatTurn {
  const dispatch = useAppDispatch();
  const [live, setLive] = useState<ConversationMessageOut[]>([]);
  const [streaming, setStreaming] = useState(false);
  const controller = useRef<AbortController | null>(null);

  // Leaving the screen stops the turn, as the stop button would: nothing streams to nobody.
  useEffect(() => () => controller.current?.abort(), []);

  const send = useCallback(
    async (content: string, { dryRun = false } = {}) => {
      if (controller.current) return false;
      const abort = new AbortController();
      controller.current = abort;
      setStreaming(true);
      try {
        const id = conversationId ?? (await ensureConversation?.()) ?? null;
        if (!id) return false;
        let user: ConversationMessageOut = { ...emptyMessage('pending-user', 'user', content), status: 'complete' };
        let answer = emptyMessage('pending-answer', 'assistant');
        let started = false;
        setLive([user, answer]);
        const outcome = await streamMessage(
          id,
          { content, ...(dryRun ? { dry_run: true } : {}) },
          {
            signal: abort.signal,
            dispatch,
            onEvent: (event) => {
              if (event.type === 'message_start') {
                started = true;
                user = { ...user, id: event.data.user_message_id };
              }
              // The canvas shows the agent's edits as soon as they are one commit.
              if (event.type === 'commit' && event.data.applied) dispatch(baseApi.util.invalidateTags(workflowEditTags(event.data.workflow_id)));
              answer = applyStreamEvent(answer, event);
              setLive([user, answer]);
            },
          },
        );
        if (started) {
          const finished = answer;
          // The server stored the same two messages (the answer also when stopped): put them in the
          // cache instead of reading the whole conversation again.
          dispatch(
            conversationsApi.util.updateQueryData('getConversation', id, (draft) => {
              for (const message of [user, finished]) {
                const at = draft.messages.findIndex((m) => m.id === message.id);
                if (at >= 0) draft.messages[at] = message;
                else draft.messages.push(message);
              }
              draft.message_count = draft.messages.length;
              draft.updated_at = finished.created_at;
              if (!draft.title) draft.title = content.slice(0, 80);
            }),
          );
          dispatch(baseApi.util.invalidateTags([{ type: 'Conversation', id: 'LIST' }]));
        }
        setLive([]);
        return started || outcome === 'done';
      } finally {
        controller.current = null;
        setStreaming(false);
      }
    },
    [conversationId, ensureConversation, dispatch],
  );

  const stop = useCallback(() => controller.current?.abort(), []);

  return { live, streaming, send, stop };
}
