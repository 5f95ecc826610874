import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser } from '../../plugins/authentication';
import { agentDepsOf, closedSignal } from '../conversations/conversations.routes';
import { CoordinatorIn, CoordinatorOut, CoordinatorParams, CoordinatorQuery } from './agents.schemas';
import { AgentsService } from './agents.service';

const tags = ['Agents'];

/** The spec's Agents calls (docs/agents.md), under /api/v1/agents. */
const agentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const agents = new AgentsService(app.db, agentDepsOf(app));

  app.post(
    '/coordinator/:workflowId/message',
    {
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
};

export default agentsRoutes;
