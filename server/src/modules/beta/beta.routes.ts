import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser } from '../../plugins/authentication';
import { BetaStatusOut } from '../users/users.schemas';
import {
  BetaIdParams,
  BetaRequestIn,
  BetaRequestOut,
  CodesCreateIn,
  CodesCreateOut,
  CodesPage,
  CodesQuery,
  InvitationCodeOut,
  InviteOut,
  RedeemIn,
  RequestsPage,
  RequestsQuery,
  SignupModeOut,
} from './beta.schemas';
import { BetaService } from './beta.service';

const tags = ['Beta'];

const betaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const beta = new BetaService(app.db, app.config, app.mailer, app.log);

  app.get(
    '/signup-mode',
    { config: { public: true }, schema: { tags, summary: 'Whether signing up needs an invitation code', response: { 200: SignupModeOut } } },
    async () => beta.signupMode(),
  );

  app.post(
    '/request',
    { schema: { tags, summary: 'Ask to join the beta (asking again updates the request)', body: BetaRequestIn, response: { 200: BetaRequestOut } } },
    async (req) => {
      const { status, again } = await beta.request(currentUser(req), req.body);
      return { status, message: req.t(again ? 'server.beta.requestUpdated' : 'server.beta.requestReceived') };
    },
  );

  app.post(
    '/redeem',
    {
      // Codes are guessable only by trying many: as slow as sign-up's budget.
      config: { rateLimit: { max: 30, timeWindow: 3_600_000, hook: 'preHandler' as const, keyGenerator: (req) => `beta-redeem:${currentUser(req).id}` } },
      schema: {
        tags,
        summary: 'Join the beta with an invitation code (an account made before invite-only mode)',
        body: RedeemIn,
        response: { 200: BetaStatusOut },
      },
    },
    async (req) => beta.redeem(currentUser(req), req.body.invitation_code),
  );

  app.post(
    '/admin/invitation-codes',
    { schema: { tags, summary: 'Make invitation codes (admins)', body: CodesCreateIn, response: { 201: CodesCreateOut } } },
    async (req, reply) => {
      const items = await beta.createCodes(currentUser(req), req.body);
      return reply.code(201).send({ items, message: req.t('server.beta.codesCreated', { count: items.length }) });
    },
  );

  app.get(
    '/admin/invitation-codes',
    { schema: { tags, summary: 'Invitation codes and who used them, the newest first (admins)', querystring: CodesQuery, response: { 200: CodesPage } } },
    async (req) => beta.listCodes(currentUser(req), req.query),
  );

  app.post(
    '/admin/invitation-codes/:id/revoke',
    { schema: { tags, summary: 'Withdraw a code: it stops working for new sign-ups (admins)', params: BetaIdParams, response: { 200: InvitationCodeOut } } },
    async (req) => beta.revoke(currentUser(req), req.params.id),
  );

  app.get(
    '/admin/requests',
    { schema: { tags, summary: 'Requests to join the beta, the newest first (admins)', querystring: RequestsQuery, response: { 200: RequestsPage } } },
    async (req) => beta.listRequests(currentUser(req), req.query),
  );

  app.post(
    '/admin/requests/:id/invite',
    { schema: { tags, summary: 'Email the person who asked a one-use code (admins)', params: BetaIdParams, response: { 200: InviteOut } } },
    async (req) => {
      const { request, code } = await beta.invite(currentUser(req), req.params.id);
      return { request, code, message: req.t('server.beta.invited', { email: request.user.email }) };
    },
  );
};

export default betaRoutes;
