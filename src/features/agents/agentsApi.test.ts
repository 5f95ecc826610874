import { http, HttpResponse } from 'msw';
import { makeStore } from '../../app/store';
import { api } from '../../test/handlers';
import { server } from '../../test/server';
import { agentsApi, type RecordsPreview } from './agentsApi';

// The agents' whole-answer calls as docs/agents.md has them: paths, query, bodies, and the 409 a
// missing model answers reaching the notices as its warning modal.

const reply = (over: object = {}) => ({
  conversation_id: 'c-1',
  message: { id: 'm-2', role: 'assistant', content: 'Done.', parts: [], status: 'complete', commit: null, usage: null, created_at: '2026-11-23T10:00:00.000Z' },
  ...over,
});

/** A step-param turn's preview as the server sends it (agents.schemas.ts PreviewOut). */
const preview: RecordsPreview = {
  run_id: 'run-1',
  state: 'succeeded',
  error: null,
  columns: [
    { name: '_id', type: 'VARCHAR' },
    { name: 'amount', type: 'DOUBLE' },
  ],
  records: [{ _id: 'r-1', amount: 120 }],
};

describe('agentsApi', () => {
  beforeEach(() => localStorage.setItem('accessToken', 'good'));

  it('sends the coordinator, step-param and param-evaluation turns as the contract says', async () => {
    const seen: string[] = [];
    server.use(
      http.post(api('/agents/coordinator/:workflowId/message'), async ({ request, params }) => {
        seen.push(
          `coordinator ${params.workflowId as string} dry_run=${new URL(request.url).searchParams.get('dry_run')} ${JSON.stringify(await request.json())}`,
        );
        return HttpResponse.json(reply({ commit: null }));
      }),
      http.post(api('/agents/workflow-step-param/:workflowId/:stepId/message'), async ({ request, params }) => {
        seen.push(`param ${params.workflowId as string}/${params.stepId as string} ${JSON.stringify(await request.json())}`);
        return HttpResponse.json(reply({ params: { column: 'amount' }, applied: true, preview }));
      }),
      http.post(api('/agents/workflow-step-param-evaluation/:workflowId/:stepId/message'), async ({ request, params }) => {
        seen.push(`evaluation ${params.workflowId as string}/${params.stepId as string} ${JSON.stringify(await request.json())}`);
        return HttpResponse.json(reply({ problems: [{ severity: 'warning', msg: 'Empty answer', record_id: 'r-1', param: 'prompt' }], preview: null }));
      }),
    );
    const store = makeStore();
    await store.dispatch(
      agentsApi.endpoints.sendCoordinatorMessage.initiate({ workflowId: 'w-1', message: 'Add a filter', conversationId: 'c-1', dryRun: true }),
    );
    const param = await store.dispatch(
      agentsApi.endpoints.sendStepParamMessage.initiate({ workflowId: 'w-1', stepId: 's-1', message: 'Keep amounts over 100' }),
    );
    const evaluation = await store.dispatch(agentsApi.endpoints.sendStepParamEvaluationMessage.initiate({ workflowId: 'w-1', stepId: 's-1', sampleSize: 3 }));
    expect(seen).toEqual([
      'coordinator w-1 dry_run=true {"message":"Add a filter","conversation_id":"c-1"}',
      'param w-1/s-1 {"message":"Keep amounts over 100","apply":true}',
      'evaluation w-1/s-1 {"sample_size":3}',
    ]);
    expect(param.data?.params).toEqual({ column: 'amount' });
    // The preview is the sample run, as the server answers it: state, error, typed columns, records.
    expect(param.data?.preview).toEqual(preview);
    expect(param.data?.preview?.columns.map((c) => c.name)).toEqual(['_id', 'amount']);
    expect(evaluation.data?.problems[0].msg).toBe('Empty answer');
  });

  it('shows the no-model warning modal of a 409', async () => {
    server.use(
      http.post(api('/agents/coordinator/:workflowId/message'), () =>
        HttpResponse.json(
          { detail: 'No model.', modal: { modal_id: 'ai-no-model', level: 'warning', content: 'Set LLM_BASE_URL and LLM_MODEL.', buttons: ['OK'] } },
          { status: 409 },
        ),
      ),
    );
    const store = makeStore();
    await store.dispatch(agentsApi.endpoints.sendCoordinatorMessage.initiate({ workflowId: 'w-1', message: 'Hi' }));
    const [notice] = store.getState().notices.messages;
    expect(notice).toMatchObject({ type: 'warning', text: 'Set LLM_BASE_URL and LLM_MODEL.', modal: { modal_id: 'ai-no-model' } });
  });

  it('shows the detail of a provider failure (502) and of the per-user turn limit (429)', async () => {
    let status = 502;
    server.use(
      http.post(api('/agents/workflow-step-param-evaluation/:workflowId/:stepId/message'), () =>
        HttpResponse.json(
          { detail: status === 502 ? 'The model provider failed: rate limited.' : 'Too many turns; try again in a minute.' },
          { status, headers: status === 429 ? { 'Retry-After': '30' } : {} },
        ),
      ),
    );
    const store = makeStore();
    await store.dispatch(agentsApi.endpoints.sendStepParamEvaluationMessage.initiate({ workflowId: 'w-1', stepId: 's-1' }));
    status = 429;
    await store.dispatch(agentsApi.endpoints.sendStepParamEvaluationMessage.initiate({ workflowId: 'w-1', stepId: 's-1', message: 'again' }));
    expect(store.getState().notices.messages.map((m) => m.text)).toEqual(
      expect.arrayContaining(['The model provider failed: rate limited.', 'Too many turns; try again in a minute.']),
    );
  });
});
