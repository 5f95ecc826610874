import type { ChatStreamEvent } from './chatStream';
import type { ConversationMessageOut } from './conversationTypes';

// The assistant's answer as it streams in, shaped like a stored message so the same components show
// both; once the turn ends it goes into the conversation's cache as it is (the server stored the same).

export function emptyMessage(id: string, role: ConversationMessageOut['role'], content = ''): ConversationMessageOut {
  return {
    id,
    role,
    content,
    parts: content ? [{ type: 'text', text: content }] : [],
    status: 'partial',
    commit: null,
    usage: null,
    created_at: new Date().toISOString(),
  };
}

/** The answer after one more event (a new object: React sees the change). */
export function applyStreamEvent(message: ConversationMessageOut, event: ChatStreamEvent): ConversationMessageOut {
  switch (event.type) {
    case 'message_start':
      return { ...message, id: event.data.message_id };
    case 'text_delta': {
      const parts = [...message.parts];
      const last = parts[parts.length - 1];
      // Deltas grow the text part they belong to; a tool call in between starts a new one.
      if (last?.type === 'text') parts[parts.length - 1] = { type: 'text', text: last.text + event.data.delta };
      else parts.push({ type: 'text', text: event.data.delta });
      return { ...message, content: message.content + event.data.delta, parts };
    }
    case 'tool_call':
      return { ...message, parts: [...message.parts, { type: 'tool_call', ...event.data }] };
    case 'tool_result':
      return { ...message, parts: [...message.parts, { type: 'tool_result', ...event.data }] };
    case 'commit':
      return { ...message, commit: event.data };
    case 'done':
      return { ...message, id: event.data.message_id, status: 'complete', usage: event.data.usage };
    case 'error':
      return { ...message, status: event.data.status };
  }
}
