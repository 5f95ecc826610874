import type { ModelMessage } from 'ai';
import type { MessageRow } from './conversations.repository';

/** What the model is sent of earlier messages, at most (about 8k tokens): the newest turns win. */
export const HISTORY_BUDGET_CHARS = 32_000;

/**
 * The conversation as the model reads it, cut to a character budget: the newest messages are kept
 * whole, older ones dropped from the start, and a line says how many were left out (the system
 * prompt is sent apart and always kept). Messages without text (a failed turn) are skipped;
 * tool activity is not replayed, only what was said.
 */
export function historyForModel(previous: MessageRow[], latest: string, budget = HISTORY_BUDGET_CHARS): { messages: ModelMessage[]; dropped: number } {
  const usable = previous.filter((m) => m.content.trim().length > 0);
  const kept: ModelMessage[] = [];
  let used = latest.length;
  let index = usable.length - 1;
  for (; index >= 0; index--) {
    const m = usable[index];
    if (used + m.content.length > budget) break;
    used += m.content.length;
    kept.unshift({ role: m.role, content: m.content });
  }
  // The model wants a user message first.
  while (kept.length && kept[0].role !== 'user') kept.shift();
  const dropped = usable.length - kept.length;
  const note: ModelMessage[] =
    dropped > 0
      ? [
          { role: 'user', content: `(${dropped} earlier messages of this conversation were left out to fit the model's context.)` },
          { role: 'assistant', content: 'Understood.' },
        ]
      : [];
  return { messages: [...note, ...kept, { role: 'user', content: latest }], dropped };
}
