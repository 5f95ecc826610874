import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser } from '../../plugins/authentication';
import { BetaStatusOut, SettingsOut, SettingsPatchIn, UserOut } from './users.schemas';
import { toUserOut, UsersService } from './users.service';
import { BetaService } from '../beta/beta.service';

const tags = ['Users'];

const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const users = new UsersService(app.db, app.secrets);
  const beta = new BetaService(app.db, app.config, app.mailer, app.log);

  // The token check already loaded the user row: answering from it saves a query on the
  // call every page load makes.
  app.get('/me', { schema: { tags, summary: 'The signed-in user', response: { 200: UserOut } } }, async (req) => toUserOut(currentUser(req)));

  app.get('/me/settings', { schema: { tags, summary: 'Display name, language and theme', response: { 200: SettingsOut } } }, async (req) =>
    users.settings(currentUser(req).id),
  );

  app.patch(
    '/me/settings',
    { schema: { tags, summary: 'Change some settings; unknown fields are refused', body: SettingsPatchIn, response: { 200: SettingsOut } } },
    async (req) => {
      const settings = await users.updateSettings(currentUser(req).id, req.body);
      // Answer in the language just chosen, so the confirmation reads right after a switch.
      const language = req.body.locale ? (req.body.locale === 'cn' ? 'zh-CN' : 'en') : req.language;
      req.language = language;
      return { ...settings, message: req.t('server.users.settingsSaved') };
    },
  );

  app.get(
    '/me/beta-status',
    { schema: { tags, summary: 'Whether this user has beta access, and where they stand in the programme', response: { 200: BetaStatusOut } } },
    async (req) => beta.status(currentUser(req)),
  );
};

export default usersRoutes;
