import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { agentDepsOf, agentTurnLimit } from '../../http/agent-turns';
import { Id } from '../../http/common.schemas';
import { closedSignal, eventChunk, sendEventStream } from '../../http/event-stream';
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
import { ConversationsService, type TurnEvent } from './conversations.service';

const tags = ['Conversations'];
const IdParams = Type.Object({ id: Id });
const MessageParams = Type.Object({ id: Id, messageId: Id });
/** A comment line this often keeps proxies from closing a quiet stream (a long tool call). */
const KEEP_ALIVE_MS = 15_000;

/**
 * Sends a turn's events as server-sent events. What fails before the first event is an ordinary
 * error answer; after that the turn runs to its end even when the client is gone, so the answer
 * is stored.
 */
async function sendTurn(reply: FastifyReply, turn: AsyncGenerator<TurnEvent>): Promise<void> {
  async function* chunks() {
    for await (const e of turn) yield eventChunk(e.event, e.data);
  }
  await sendEventStream(reply, chunks(), {
    keepAliveMs: KEEP_ALIVE_MS,
    onError: (err) => {
      reply.log.error({ err }, 'conversation stream failed');
      return eventChunk('error', { detail: reply.request.t('server.errors.internal'), status: 'error' });
    },
  });
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
