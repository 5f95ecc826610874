import { UsageCharges } from '../modules/usage/usage-charges';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConversationsDeps } from '../modules/conversations/conversations.service';
import { DatasetsService } from '../modules/datasets/datasets.service';
import { RunsService } from '../modules/runs/runs.service';
import { createEmbedder } from '../modules/step-infos/embeddings';
import { StepInfoSearch } from '../modules/step-infos/search.service';
import { StepInfosService } from '../modules/step-infos/step-infos.service';
import { Prices } from '../modules/usage/prices';
import { UserModels } from '../modules/users/user-models';
import { currentUser } from '../plugins/authentication';

// What the conversations and the agents routes share: both run agent turns.

/**
 * Each turn calls a paid model: at most this many per user per minute, over the stream and the
 * agents' JSON calls alike (counted after sign-in, so per user rather than per address).
 */
export const agentTurnLimit = {
  max: 60,
  timeWindow: 60_000,
  hook: 'preHandler' as const,
  keyGenerator: (req: FastifyRequest) => `agent-turn:${currentUser(req).id}`,
};

/** What the agents need from the app, built once per routes plugin. */
export function agentDepsOf(app: FastifyInstance): ConversationsDeps {
  const search = new StepInfoSearch(app.db, createEmbedder(app.config.embedding), app.log);
  return {
    db: app.db,
    secrets: app.secrets,
    stepInfos: new StepInfosService(app.db, search, new Prices(app.config.billing)),
    runs: new RunsService(app.runs, app.runEvents),
    runEngine: app.runs,
    datasets: new DatasetsService(app.db, app.datasets),
    models: new UserModels(app.db, app.secrets, app.config),
    charges: new UsageCharges(app.db, app.config.billing),
    log: app.log,
  };
}
