import { jsonSchema, tool, type Tool } from 'ai';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Language, MessageValues } from '../../i18n/messages';
import { translate } from '../../i18n/messages';
import { DomainError, ValidationFailed } from '../../lib/errors';

/** What every tool answers: its data, or `{error, problems?}` that the model reads and may fix. */
export type ToolAnswer = Record<string, unknown>;

/** Tool results are data for the model; a big one is cut so one call cannot fill the context. */
const MAX_RESULT_CHARS = 12_000;

export const isToolError = (result: unknown): boolean => typeof result === 'object' && result !== null && 'error' in result;

/**
 * An AI SDK tool whose input is checked against the API's own TypeBox schema (the same bounds and
 * patterns a request meets) before it runs, and whose domain errors (not found, validation,
 * conflicts) come back to the model as readable text in the user's language instead of ending the
 * turn.
 */
export function agentTool<S extends TSchema>(
  language: Language,
  description: string,
  schema: S,
  run: (input: import('@sinclair/typebox').Static<S>) => Promise<ToolAnswer>,
  serial: Serial = (work) => work(),
): Tool {
  const t = (key: string, values?: MessageValues) => translate(language, key, values);
  return tool({
    description,
    inputSchema: jsonSchema(JSON.parse(JSON.stringify(schema)) as Parameters<typeof jsonSchema>[0]),
    execute: (input: unknown) =>
      serial(async () => {
        const value = Value.Default(schema, Value.Clone(input ?? {}));
        const errors = [...Value.Errors(schema, value)].slice(0, 10);
        if (errors.length) {
          return { error: t('server.agents.toolInputInvalid'), problems: errors.map((e) => ({ msg: e.message, loc: e.path.split('/').filter(Boolean) })) };
        }
        try {
          return bounded(await run(value as import('@sinclair/typebox').Static<S>));
        } catch (err) {
          if (err instanceof ValidationFailed)
            return { error: t('server.agents.toolInputInvalid'), problems: err.problems.map((p) => ({ msg: t(p.key, p.values), loc: p.loc })) };
          if (err instanceof DomainError) return { error: t(err.messageKey, err.values) };
          throw err;
        }
      }),
  }) as Tool;
}

function bounded(result: ToolAnswer): ToolAnswer {
  const text = JSON.stringify(result);
  if (text.length <= MAX_RESULT_CHARS) return result;
  return { truncated: true, text: `${text.slice(0, MAX_RESULT_CHARS)}…` };
}

/** Runs work one piece at a time, in the order asked (the SDK starts a step's tool calls together). */
export type Serial = <T>(work: () => Promise<T>) => Promise<T>;

export function serialQueue(): Serial {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>) => {
    const next = tail.then(work, work);
    tail = next.catch(() => undefined);
    return next;
  };
}
