import { Type } from '@sinclair/typebox';
import { UserModels } from '../users/user-models';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createEmbedder } from '../step-infos/embeddings';
import { StepInfoSearch } from '../step-infos/search.service';
import { Prices } from '../usage/prices';
import { StepInfosService } from '../step-infos/step-infos.service';
import { RunsService } from '../runs/runs.service';
import { DatasetsService } from '../datasets/datasets.service';
import { Id } from '../../http/common.schemas';
import { currentUser } from '../../plugins/authentication';
import {
  ConversationCreateIn,
  ConversationDetailOut,
  ConversationListQuery,
  ConversationMessageOut,
  ConversationOut,
  ConversationPage,
  MessageStreamIn,
} from './conversations.schemas';
import { ConversationsService, type ConversationsDeps, type TurnEvent } from './conversations.service';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const tags = ['Conversations'];
const IdParams = Type.Object({ id: Id });
const MessageParams = Type.Object({ id: Id, messageId: Id });
/** A comment line this often keeps proxies from closing a quiet stream (a long tool call). */
const KEEP_ALIVE_MS = 15_000;

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

/** What the agents need from the app, built once per app (the conversations and agents routes share it). */
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
    log: app.log,
  };
}

/** An AbortSignal that fires when the client goes away before the answer ended (a stop, a dropped stream). */
export function closedSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) controller.abort();
  });
  return controller.signal;
}

/**
 * Sends a turn's events as server-sent events. The first event is awaited before any byte is
 * written, so what fails first (not found, no model, the provider refusing) is an ordinary error
 * answer; after that the turn runs to its end even when the client is gone, so the answer is stored.
 */
export async function sendTurn(reply: FastifyReply, turn: AsyncGenerator<TurnEvent>): Promise<void> {
  const first = await turn.next();
  reply.raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  reply.hijack();
  const write = (chunk: string) => {
    if (!reply.raw.destroyed && !reply.raw.writableEnded) reply.raw.write(chunk);
  };
  const send = (e: TurnEvent) => write(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  try {
    if (!first.done) send(first.value);
    for await (const e of turn) send(e);
  } catch (err) {
    reply.log.error({ err }, 'conversation stream failed');
    send({ event: 'error', data: { detail: reply.request.t('server.errors.internal'), status: 'error' } });
  } finally {
    clearInterval(keepAlive);
    if (!reply.raw.writableEnded) reply.raw.end();
  }
}

/** The spec's Conversations calls (docs/agents.md), under /api/v1/conversations. */
const conversationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const conversations = new ConversationsService(app.db, agentDepsOf(app));

  app.get(
    '/',
    { schema: { tags, summary: 'My conversations, newest first (by last message)', querystring: ConversationListQuery, response: { 200: ConversationPage } } },
    async (req) => conversations.list(currentUser(req).id, req.query),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Start a conversation, optionally with an agent bound to one of my workflows (and a step)',
        body: ConversationCreateIn,
        response: { 201: ConversationOut },
      },
    },
    async (req, reply) => reply.code(201).send(await conversations.create(currentUser(req).id, req.body)),
  );

  app.get(
    '/:id',
    { schema: { tags, summary: 'A conversation with its messages, oldest first', params: IdParams, response: { 200: ConversationDetailOut } } },
    async (req) => conversations.get(currentUser(req).id, req.params.id),
  );

  app.post(
    '/:id/messages/stream',
    {
      config: { rateLimit: agentTurnLimit },
      schema: {
        tags,
        summary:
          'Send a message; the answer streams as server-sent events (text/event-stream): message_start, text_delta, tool_call, tool_result, commit, then done or error (docs/agents.md). Aborting the request stops the turn; the partial answer is kept.',
        params: IdParams,
        body: MessageStreamIn,
      },
    },
    async (req, reply) => {
      const turn = conversations.turn(currentUser(req).id, req.params.id, {
        content: req.body.content,
        dryRun: req.body.dry_run ?? false,
        language: req.language,
        signal: closedSignal(reply),
      });
      await sendTurn(reply, turn);
    },
  );

  app.post(
    '/:id/messages/:messageId/apply',
    {
      schema: {
        tags,
        summary: "Apply a dry run's proposal exactly as shown, as one commit (409 when the workflow changed since, or it was applied already)",
        params: MessageParams,
        response: { 200: ConversationMessageOut },
      },
    },
    async (req) => conversations.applyProposal(currentUser(req).id, req.params.id, req.params.messageId),
  );
};

export default conversationsRoutes;
