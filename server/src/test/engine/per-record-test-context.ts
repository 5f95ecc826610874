import { chatModelFor, embeddingModelFor, NoModelConfigured, type ModelSettings } from '../../ai';
import type { Datasets } from '../../engine/datasets';
import type { OutboundHttpClient } from '../../engine/outbound-http';
import type { AiAccess, AnswerCache, CachedAnswer, CallJournal, FinishedCall, RunContext, UserFiles, Vars } from '../../engine/runners/types';
import { logText } from '../../engine/run-log';

/**
 * A RunContext for per-record runners' tests: what they use (signal, vars, http, log, progress) is
 * real and recorded; what they must not touch (datasets, files) throws when reached, so a runner
 * that starts reading them fails its tests instead of passing against a stand-in.
 */
export interface TestRunContext extends RunContext {
  readonly lines: string[];
  /** What `usage` recorded. */
  readonly used: { kind: string; quantity: number; key: string }[];
  readonly controller: AbortController;
}

function untouchable<T extends object>(what: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      throw new Error(`per-record runners do not use ctx.${what} (read ${String(property)})`);
    },
  });
}

/** For contexts of steps that use no model: reaching `ctx.ai` throws. */
export const untouchableAi = (): AiAccess => untouchable<AiAccess>('ai');

/** A cache kept in memory, for runner tests (the run engine's is a database table, tested there). */
export class MemoryAnswerCache implements AnswerCache {
  readonly entries = new Map<string, CachedAnswer & { modelId: string }>();
  async get(keys: readonly string[]) {
    const found = new Map<string, CachedAnswer>();
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (entry)
        found.set(key, { answer: entry.answer, stepRunId: entry.stepRunId, recordId: entry.recordId, tokensIn: entry.tokensIn, tokensOut: entry.tokensOut });
    }
    return found;
  }
  async put(entries: readonly ({ key: string; modelId: string } & CachedAnswer)[]) {
    for (const { key, ...entry } of entries) this.entries.set(key, entry);
  }
}

/** A call journal kept in memory, for runner tests (the run engine's is a database table, engine/run/call-journal.ts). */
export class MemoryCallJournal implements CallJournal {
  readonly entries = new Map<string, FinishedCall>();
  async finished(keys: readonly string[]) {
    return new Map(keys.filter((k) => this.entries.has(k)).map((k) => [k, structuredClone(this.entries.get(k)!)]));
  }
  async record(key: string, call: FinishedCall) {
    this.entries.set(key, structuredClone(call));
  }
}

/** Models from `settings` (a stand-in's), as the run engine builds them from the configuration. */
export function testAi(settings: ModelSettings, options: { timeoutMs?: number; cache?: AnswerCache; retryBackoffMs?: number } = {}): AiAccess {
  return {
    chat(model) {
      const chat = chatModelFor(model ? { ...settings, model } : settings);
      if (!chat) throw new NoModelConfigured();
      return chat;
    },
    embedding(model) {
      if (!settings.model) throw new NoModelConfigured();
      return { model: embeddingModelFor(settings, model), id: `embedding:${model}@${settings.baseUrl}` };
    },
    timeoutMs: options.timeoutMs ?? 10_000,
    // Retries back off 1, 2, 4 s in production: the tests that exhaust them need not wait 7 s.
    retryBackoffMs: options.retryBackoffMs ?? 10,
    cache: options.cache ?? new MemoryAnswerCache(),
  };
}

export function testRunContext(
  options: { http?: OutboundHttpClient; vars?: Vars; ai?: AiAccess; stepRunId?: string; calls?: CallJournal } = {},
): TestRunContext {
  const lines: string[] = [];
  const used: TestRunContext['used'] = [];
  const controller = new AbortController();
  return {
    ownerId: 'owner-1',
    stepRunId: options.stepRunId ?? 'step-run-1',
    signal: controller.signal,
    controller,
    dataset: () => Promise.reject(new Error('a per-record runner reads no dataset by id')),
    vars: options.vars ?? {},
    sampleSize: null,
    datasets: untouchable<Datasets>('datasets'),
    files: untouchable<UserFiles>('files'),
    http: options.http ?? untouchable<OutboundHttpClient>('http'),
    calls: options.calls ?? new MemoryCallJournal(),
    ai: options.ai ?? untouchableAi(),
    output: { datasetId: '00000000-0000-4000-8000-000000000001', name: 'output' },
    lines,
    used,
    usage: (event) => used.push(event),
    log: (key, values) => lines.push(logText('en', key, values)),
    progress: () => undefined,
  };
}
