import { aiClassify } from './ai-classify';
import { textOf } from '../../test/llm-server';
import { StepParamsInvalid } from '../runners/errors';
import type { PerRecordRunner } from '../runners/types';
import { llm, reviews, run, useLlmServer, userText } from '../../test/engine/ai-testbed';

const aiClassifyRunner = aiClassify.runner as PerRecordRunner;

// Every call goes over real HTTP to the OpenAI-compatible stand-in, through the AI SDK.

useLlmServer();

describe('ai_classify', () => {
  it('answers one of the labels, constrained by the schema; empty texts are not sent', async () => {
    llm.setDefault((r) => ({ text: JSON.stringify({ label: userText(r).includes('Great') ? 'positive' : 'neutral' }) }));
    const { rows } = await run(aiClassifyRunner, reviews, { column: 'review', labels: ['positive', 'negative', 'neutral'] });
    expect(rows.map((r) => r.label)).toEqual(['positive', null, 'neutral', null]);
    expect(llm.requests).toHaveLength(2);
    const format = llm.requests[0].responseFormat as { json_schema: { schema: { properties: { label: { enum: string[] } } } } };
    expect(format.json_schema.schema.properties.label.enum).toEqual(['positive', 'negative', 'neutral']);
  });

  it('sends a label that is not in the list back once, and keeps several labels as a list', async () => {
    llm.queue({ text: '{"label": "awesome"}' }, { text: '{"label": "positive"}' });
    const single = await run(aiClassifyRunner, reviews.slice(0, 1), { column: 'review', labels: ['positive', 'negative'] });
    expect(single.rows[0]).toMatchObject({ label: 'positive', label_error: null });
    expect(textOf(llm.requests[1].messages.at(-1)?.content)).toMatch(/"awesome" is not one of the labels/);

    llm.queue({ text: '{"labels": ["quality", "price"]}' });
    const multi = await run(aiClassifyRunner, reviews.slice(0, 1), {
      column: 'review',
      labels: ['quality', 'price', 'delivery'],
      multi_label: true,
      output_column: 'topics',
    });
    expect(multi.rows[0]).toMatchObject({ topics: ['quality', 'price'] });
    expect(aiClassifyRunner.appendedColumns!([{ name: 'review', type: 'VARCHAR' }], { column: 'review', labels: ['a', 'b'], multi_label: true })).toEqual([
      { name: 'label', type: 'JSON' },
      { name: 'label_error', type: 'VARCHAR' },
    ]);
    expect(() => aiClassifyRunner.outputColumns([[{ name: 'review', type: 'VARCHAR' }]], { column: 'review', labels: ['a'] })).toThrow(StepParamsInvalid);
    expect(() => aiClassifyRunner.outputColumns([[{ name: 'review', type: 'VARCHAR' }]], { column: 'review', labels: ['a', 'a'] })).toThrow(StepParamsInvalid);
    expect(() => aiClassifyRunner.outputColumns([[{ name: 'review', type: 'VARCHAR' }]], { column: 'nope', labels: ['a', 'b'] })).toThrow(StepParamsInvalid);
  });
});
