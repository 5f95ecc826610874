import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser } from '../../plugins/authentication';
import { agentDepsOf, agentTurnLimit } from '../../http/agent-turns';
import { closedSignal } from '../../http/event-stream';
import {
  CoordinatorIn,
  CoordinatorOut,
  CoordinatorParams,
  CoordinatorQuery,
  EvaluationIn,
  EvaluationOut,
  StepAgentParams,
  StepParamIn,
  StepParamOut,
} from './agents.schemas';
import { AgentsService } from './agents.service';

const tags = ['Agents'];

/** The spec's Agents calls (docs/agents.md), under /api/v1/agents. */
const agentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const agents = new AgentsService(app.db, agentDepsOf(app));

  app.post(
    '/coordinator/:workflowId/message',
    {
      config: { rateLimit: agentTurnLimit },
      schema: {
        tags,
        summary: "Ask the coordinator to read or change my workflow; the turn's edits become one commit (dry_run: a proposal only)",
        params: CoordinatorParams,
        querystring: CoordinatorQuery,
        body: CoordinatorIn,
        response: { 200: CoordinatorOut },
      },
    },
    async (req, reply) => agents.coordinator(currentUser(req).id, req.params.workflowId, req.body, req.query.dry_run, req.language, closedSignal(reply)),
  );

  app.post(
    '/workflow-step-param/:workflowId/:stepId/message',
    {
      config: { rateLimit: agentTurnLimit },
      schema: {
        tags,
        summary:
          "Fill one step's params from a plain-language request, validated by the step type's rules, saved as one commit (apply=false: proposed only) and previewed on a few records",
        params: StepAgentParams,
        body: StepParamIn,
        response: { 200: StepParamOut },
      },
    },
    async (req, reply) => agents.stepParam(currentUser(req).id, req.params.workflowId, req.params.stepId, req.body, req.language, closedSignal(reply)),
  );

  app.post(
    '/workflow-step-param-evaluation/:workflowId/:stepId/message',
    {
      config: { rateLimit: agentTurnLimit },
      schema: {
        tags,
        summary:
          "Run the step's params on a few sample records and report problems (refused params, unknown columns, a failing run, empty or malformed answers), explained by the model",
        params: StepAgentParams,
        body: EvaluationIn,
        response: { 200: EvaluationOut },
      },
    },
    async (req, reply) => agents.evaluate(currentUser(req).id, req.params.workflowId, req.params.stepId, req.body ?? {}, req.language, closedSignal(reply)),
  );
};

export default agentsRoutes;
