import type { FastifyInstance } from 'fastify';

/** Builds workflows over HTTP, as a user would, for the tests of the workflow areas. */
export function workflowClient(app: FastifyInstance, auth: { authorization: string }) {
  const call = async (method: string, url: string, payload?: object, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: { ...auth, ...headers }, payload });
    return { status: res.statusCode, body: res.body ? res.json() : null, headers: res.headers };
  };
  const ok = async (method: string, url: string, payload?: object, headers?: Record<string, string>) => {
    const res = await call(method, url, payload, headers);
    if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return {
    call,
    ok,
    createWorkflow: (name = 'Test workflow') => ok('POST', '/workflows', { name }),
    getWorkflow: (id: string) => ok('GET', `/workflows/${id}`),
    addStep: (workflowId: string, step_type: string, extra: object = {}) => ok('POST', '/workflow-steps', { workflow_id: workflowId, step_type, ...extra }),
  };
}
