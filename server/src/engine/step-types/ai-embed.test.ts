import { aiEmbed } from './ai-embed';
import type { PerRecordRunner } from '../runners/types';
import { MemoryAnswerCache } from '../../test/engine/per-record-test-context';
import { context, llm, reviews, run, useLlmServer } from '../../test/engine/ai-testbed';

const aiEmbedRunner = aiEmbed.runner as PerRecordRunner;

// Every call goes over real HTTP to the OpenAI-compatible stand-in, through the AI SDK.

useLlmServer();

describe('ai_embed', () => {
  it('embeds a batch’s texts in one call, skips empty ones, and takes known texts from the cache', async () => {
    const cache = new MemoryAnswerCache();
    const records = [...reviews, { _id: 'r5', review: 'Great product, works well', stars: 5 }];
    const first = await run(aiEmbedRunner, records, { column: 'review', model: 'stand-in-embed' }, context({ cache }));
    expect(llm.embeddings).toEqual([['Great product, works well', '很好用，推荐 👍']]);
    expect(first.rows.map((r) => (Array.isArray(r.embedding) ? r.embedding.length : r.embedding))).toEqual([8, null, 8, null, 8]);
    expect(first.rows[0].embedding).toEqual(first.rows[4].embedding);
    expect(first.ctx.used.every((u) => u.kind === 'ai_tokens_in')).toBe(true);
    // r5 repeats r1's text: paid once, under r1's key (the engine counts a key once).
    expect([...new Set(first.ctx.used.map((u) => u.key))].sort()).toEqual(['r1', 'r3']);

    const second = await run(
      aiEmbedRunner,
      [...records, { _id: 'r6', review: 'new text', stars: 2 }],
      { column: 'review', model: 'stand-in-embed' },
      context({ cache }),
    );
    expect(llm.embeddings).toEqual([['Great product, works well', '很好用，推荐 👍'], ['new text']]);
    expect(second.rows[0].embedding).toEqual(first.rows[0].embedding);
    expect(second.ctx.used.map((u) => u.key)).toEqual(['r6']);
    expect(aiEmbedRunner.appendedColumns!([{ name: 'review', type: 'VARCHAR' }], { column: 'review', model: 'm' })).toEqual([
      { name: 'embedding', type: 'DOUBLE[]' },
      { name: 'embedding_error', type: 'VARCHAR' },
    ]);
  });

  it('needs a model configured', async () => {
    await expect(run(aiEmbedRunner, reviews, { column: 'review', model: 'stand-in-embed' }, context({ noModel: true }))).rejects.toMatchObject({
      name: 'NoModelConfigured',
    });
    expect(llm.embeddings).toHaveLength(0);
  });
});
