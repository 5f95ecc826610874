import { aiExtract } from './ai-extract';
import type { PerRecordRunner } from '../runners/types';
import { llm, run, systemText, useLlmServer, userText } from '../../test/engine/ai-testbed';

const aiExtractRunner = aiExtract.runner as PerRecordRunner;

// Every call goes over real HTTP to the OpenAI-compatible stand-in, through the AI SDK.

useLlmServer();

describe('ai_extract', () => {
  it('extracts typed fields into columns, null when the text does not say', async () => {
    llm.queue({ text: '{"name": "Zoë", "amount": 12.5, "paid": null}' });
    const { rows } = await run(
      aiExtractRunner,
      [
        { _id: 'e1', mail: 'Zoë owes 12.50 €' },
        { _id: 'e2', mail: null },
      ],
      {
        column: 'mail',
        fields: [
          { name: 'name', type: 'text' },
          { name: 'amount', type: 'number', description: 'in euros' },
          { name: 'paid', type: 'boolean' },
        ],
      },
    );
    expect(rows).toEqual([
      { _id: 'e1', name: 'Zoë', amount: 12.5, paid: null, extract_error: null },
      { _id: 'e2', name: null, amount: null, paid: null, extract_error: null },
    ]);
    expect(llm.requests).toHaveLength(1);
    expect(systemText(llm.requests[0])).toContain('amount (number): in euros');
    expect(userText(llm.requests[0])).toContain('<data field="mail">Zoë owes 12.50 €</data>');
  });
});
