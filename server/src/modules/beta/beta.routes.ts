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

  // The spec's call, for signed-in users (a secure call: 401 without a token). Asking again updates
  // the request. Bounded per account.
  app.post(
    '/request',
    {
      config: {
        rateLimit: { max: 20, timeWindow: 3_600_000, hook: 'preHandler' as const, keyGenerator: (req) => `beta-request:user:${currentUser(req).id}` },
      },
      schema: {
        tags,
        summary: 'Ask to join the beta (signed in; asking again updates the request)',
        description: "The request is the account's; `email` and `name` in the body are not used. Limited to 20 an hour per account (429).",
        body: BetaRequestIn,
        response: { 200: BetaRequestOut },
      },
    },
    async (req) => {
      const { status, again } = await beta.request(currentUser(req), req.body);
      return { status, message: req.t(again ? 'server.beta.requestUpdated' : 'server.beta.requestReceived') };
    },
  );

  // Not in the spec: in invite-only mode a visitor cannot make an account without a code, so asking
  // for one cannot need an account (issue 11/13). Public; the body's email says where to send the
  // code. Bounded per client address.
  app.post(
    '/visitor-request',
    {
      config: {
        public: true,
        rateLimit: { max: 20, timeWindow: 3_600_000, hook: 'preHandler' as const, keyGenerator: (req) => `beta-request:ip:${req.ip}` },
      },
      schema: {
        tags,
        summary: 'Ask to join the beta as a visitor, with an email (no account, no token)',
        description:
          '`email` is required (422 at `["body","email"]` otherwise), `name` is optional, one request per email (asking again changes nothing and ' +
          'is answered the same). Limited to 20 an hour per client address (429).',
        body: BetaRequestIn,
        response: { 200: BetaRequestOut },
      },
    },
    async (req) => {
      await beta.requestAsVisitor(req.body, req.language);
      return { status: 'pending' as const, message: req.t('server.beta.requestReceived') };
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
