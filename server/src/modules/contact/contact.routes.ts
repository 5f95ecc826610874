import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../lib/http-error';
import { currentUser } from '../../plugins/authentication';
import {
  AdminQueriesQuery,
  ContactAdminPage,
  ContactIdParams,
  ContactQueryOut,
  ContactQueryPage,
  ContactReplyIn,
  ContactStatusIn,
  ContactSubmitIn,
  ContactSubmitOut,
  MyQueriesQuery,
} from './contact.schemas';
import { ContactService } from './contact.service';

const tags = ['Contact'];

const contactRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const contact = new ContactService(app.db, app.config, app.mailer, app.log);

  // Per user, not per address: the inbox is read by people, and one account should not flood it.
  // Checked after the body is valid, so a refused form does not use up the hour's budget.
  const perHour = app.config.contactRateLimitPerHour;
  const submitLimit = app.createRateLimit({ max: perHour, timeWindow: 3_600_000, keyGenerator: (req) => `contact-submit:${currentUser(req).id}` });
  const limitSubmits = async (req: FastifyRequest, reply: FastifyReply) => {
    const verdict = await submitLimit(req);
    if (verdict.isAllowed || !verdict.isExceeded) return;
    reply.header('retry-after', verdict.ttlInSeconds);
    throw new HttpError(429, 'server.contact.tooManyQueries', { max: perHour });
  };

  app.post(
    '/submit',
    {
      preHandler: limitSubmits,
      schema: { tags, summary: 'Send a question to support', body: ContactSubmitIn, response: { 201: ContactSubmitOut } },
    },
    async (req, reply) => {
      const query = await contact.submit(currentUser(req), req.body);
      return reply.code(201).send({ query, message: req.t('server.contact.submitted') });
    },
  );

  app.get(
    '/my-queries',
    {
      schema: {
        tags,
        summary: "The signed-in user's own queries, the latest activity first",
        querystring: MyQueriesQuery,
        response: { 200: ContactQueryPage },
      },
    },
    async (req) => contact.mine(currentUser(req), req.query),
  );

  app.get(
    '/admin/all',
    { schema: { tags, summary: 'Every query (support staff and admins)', querystring: AdminQueriesQuery, response: { 200: ContactAdminPage } } },
    async (req) => contact.all(currentUser(req), req.query),
  );

  app.get(
    '/:id',
    { schema: { tags, summary: 'A query and its replies (its asker, or support staff)', params: ContactIdParams, response: { 200: ContactQueryOut } } },
    async (req) => contact.get(currentUser(req), req.params.id),
  );

  app.post(
    '/:id/replies',
    {
      schema: {
        tags,
        summary: 'Reply: the asker reopens it, support answers it (and the asker is emailed)',
        params: ContactIdParams,
        body: ContactReplyIn,
        response: { 200: ContactQueryOut },
      },
    },
    async (req) => contact.reply(currentUser(req), req.params.id, req.body.message),
  );

  app.patch(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Set the status (support staff and admins)',
        params: ContactIdParams,
        body: ContactStatusIn,
        response: { 200: ContactQueryOut },
      },
    },
    async (req) => contact.setStatus(currentUser(req), req.params.id, req.body),
  );
};

export default contactRoutes;
