import { randomUUID } from 'node:crypto';
import type { ModelSettings } from '../../ai';
import { startLlmServer, textOf, type ChatRequestSeen, type LlmServer } from '../llm-server';
import type { JsonRecord } from '../../engine/datasets';
import type { PerRecordRunner } from '../../engine/runners/types';
import { MemoryAnswerCache, testAi, testRunContext } from './per-record-test-context';

// The AI steps' tests: every call goes over real HTTP to the OpenAI-compatible stand-in, through the AI SDK.

export let llm: LlmServer;
export let settings: ModelSettings;

/** A step run's context (each its own step run unless `stepRunId` says otherwise). */
export const context = (
  options: { cache?: MemoryAnswerCache; vars?: Record<string, unknown>; timeoutMs?: number; noModel?: boolean; stepRunId?: string } = {},
) =>
  testRunContext({
    vars: options.vars,
    stepRunId: options.stepRunId ?? randomUUID(),
    ai: testAi(options.noModel ? { ...settings, model: null } : settings, { cache: options.cache, timeoutMs: options.timeoutMs }),
  });

export const reviews: JsonRecord[] = [
  { _id: 'r1', review: 'Great product, works well', stars: 5 },
  { _id: 'r2', review: null, stars: 1 },
  { _id: 'r3', review: '很好用，推荐 👍', stars: 4 },
  { _id: 'r4', review: '', stars: 3 },
];

export const userText = (r: ChatRequestSeen) => textOf(r.messages.filter((m) => m.role === 'user').at(-1)?.content);
export const systemText = (r: ChatRequestSeen) => textOf(r.messages.find((m) => m.role === 'system')?.content);

export async function run(runner: PerRecordRunner, records: JsonRecord[], params: Record<string, unknown>, ctx = context()) {
  return { ...(await runner.processBatch(ctx, records, params)), ctx };
}

/** Starts the OpenAI-compatible stand-in around a test file and clears what it saw before each test. */
export function useLlmServer(): void {
  beforeAll(async () => {
    llm = await startLlmServer();
    settings = { baseUrl: llm.url, apiKey: null, model: 'stand-in-chat', provider: 'openai-compatible' };
  });
  afterAll(() => llm.close());
  beforeEach(() => {
    llm.requests.length = 0;
    llm.embeddings.length = 0;
    llm.setDefault((r) => ({ text: `Echo: ${textOf(r.messages.at(-1)?.content)}` }));
  });
}
