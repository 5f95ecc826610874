import { aiSummarize } from './ai-summarize';
import type { PerRecordRunner } from '../runners/types';
import { llm, reviews, run, systemText, useLlmServer } from '../../test/engine/ai-testbed';

const aiSummarizeRunner = aiSummarize.runner as PerRecordRunner;

// Every call goes over real HTTP to the OpenAI-compatible stand-in, through the AI SDK.

useLlmServer();

describe('ai_summarize', () => {
  it('summarises with the length, style and language asked', async () => {
    llm.setDefault(() => ({ text: '  A short summary.  ' }));
    const { rows } = await run(aiSummarizeRunner, reviews, { column: 'review', length: 'medium', style: 'bullet_points', language: 'German' });
    expect(rows.map((r) => r.summary)).toEqual(['A short summary.', null, 'A short summary.', null]);
    expect(llm.requests).toHaveLength(2);
    expect(systemText(llm.requests[0])).toMatch(/about three sentences.*bullet points.*in German/s);
    expect(llm.requests[0].body).toMatchObject({ max_tokens: 300 });
  });
});
