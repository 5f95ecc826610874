import { http, HttpResponse } from 'msw';
import { makeStore } from '../../app/store';
import { api } from '../../test/handlers';
import { server } from '../../test/server';
import { agentsApi } from './agentsApi';

// The agents' whole-answer calls as docs/agents.md has them: paths, query, bodies, and the 409 a
// missing model answers reaching the notices as its warning modal.

const reply = (over: object = {}) => ({
  conversation_id: 'c-1',
  message: { id: 'm-2', role: 'assistant', content: 'Done.', parts: [], status: 'complete', commit: null, usage: null, created_at: '2026-11-23T10:00:00.000Z' },
  ...over,
});

describe('agentsApi', () => {
  beforeEach(() => localStorage.setItem('accessToken', 'good'));

  it('sends the coordinator, step-param and param-evaluation turns as the contract says', async () => {
    const seen: string[] = [];
    server.use(
      http.post(api('/agents/coordinator/:workflowId/message'), async ({ request, params }) => {
        seen.push(`coordinator ${params.workflowId as string} dry_run=${new URL(request.url).searchParams.get('dry_run')} ${JSON.stringify(await request.json())}`);
        return HttpResponse.json(reply({ commit: null }));
      }),
      http.post(api('/agents/workflow-step-param/:workflowId/:stepId/message'), async ({ request, params }) => {
        seen.push(`param ${params.workflowId as string}/${params.stepId as string} ${JSON.stringify(await request.json())}`);
        return HttpResponse.json(reply({ params: { column: 'amount' }, applied: true, preview: null }));
      }),
      http.post(api('/agents/workflow-step-param-evaluation/:workflowId/:stepId/message'), async ({ request, params }) => {
        seen.push(`evaluation ${params.workflowId as string}/${params.stepId as string} ${JSON.stringify(await request.json())}`);
        return HttpResponse.json(reply({ problems: [{ severity: 'warning', msg: 'Empty answer', record_id: 'r-1', param: 'prompt' }], preview: null }));
      }),
    );
    const store = makeStore();
    await store.dispatch(agentsApi.endpoints.sendCoordinatorMessage.initiate({ workflowId: 'w-1', message: 'Add a filter', conversationId: 'c-1', dryRun: true }));
    const param = await store.dispatch(agentsApi.endpoints.sendStepParamMessage.initiate({ workflowId: 'w-1', stepId: 's-1', message: 'Keep amounts over 100' }));
    const evaluation = await store.dispatch(agentsApi.endpoints.sendStepParamEvaluationMessage.initiate({ workflowId: 'w-1', stepId: 's-1', sampleSize: 3 }));
    expect(seen).toEqual([
      'coordinator w-1 dry_run=true {"message":"Add a filter","conversation_id":"c-1"}',
      'param w-1/s-1 {"message":"Keep amounts over 100","apply":true}',
      'evaluation w-1/s-1 {"sample_size":3}',
    ]);
    expect(param.data?.params).toEqual({ column: 'amount' });
    expect(evaluation.data?.problems[0].msg).toBe('Empty answer');
  });

  it('shows the no-model warning modal of a 409', async () => {
    server.use(
      http.post(api('/agents/coordinator/:workflowId/message'), () =>
        HttpResponse.json({ detail: 'No model.', modal: { modal_id: 'llm-missing', level: 'warning', content: 'Set LLM_BASE_URL and LLM_MODEL.', buttons: ['OK'] } }, { status: 409 }),
      ),
    );
    const store = makeStore();
    await store.dispatch(agentsApi.endpoints.sendCoordinatorMessage.initiate({ workflowId: 'w-1', message: 'Hi' }));
    const [notice] = store.getState().notices.messages;
    expect(notice).toMatchObject({ type: 'warning', text: 'Set LLM_BASE_URL and LLM_MODEL.', modal: { modal_id: 'llm-missing' } });
  });
});
