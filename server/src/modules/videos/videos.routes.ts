import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MessageOut } from '../../http/common.schemas';
import { currentUser } from '../../plugins/authentication';
import { VideoAdminPage, VideoCreateIn, VideoIdParams, VideoPage, VideoPatchIn, VideoSavedOut, VideosAdminQuery, VideosQuery } from './videos.schemas';
import { VideosService } from './videos.service';

const tags = ['Videos'];

const videosRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const videos = new VideosService(app.db);

  app.get(
    '/',
    {
      config: { public: true },
      schema: { tags, summary: 'Published tutorial videos in one language, in order', querystring: VideosQuery, response: { 200: VideoPage } },
    },
    // Without a locale, the caller's own language (the web app sends its UI language).
    async (req) => videos.published({ ...req.query, locale: req.query.locale ?? (req.language === 'zh-CN' ? 'cn' : 'en') }),
  );

  app.get(
    '/admin/all',
    { schema: { tags, summary: 'Every video, hidden ones too (admins)', querystring: VideosAdminQuery, response: { 200: VideoAdminPage } } },
    async (req) => videos.all(currentUser(req), req.query),
  );

  app.post('/admin', { schema: { tags, summary: 'Add a video (admins)', body: VideoCreateIn, response: { 201: VideoSavedOut } } }, async (req, reply) =>
    reply.code(201).send({ ...(await videos.create(currentUser(req), req.body)), message: req.t('server.videos.created') }),
  );

  app.patch(
    '/admin/:id',
    { schema: { tags, summary: 'Change a video (admins)', params: VideoIdParams, body: VideoPatchIn, response: { 200: VideoSavedOut } } },
    async (req) => ({ ...(await videos.update(currentUser(req), req.params.id, req.body)), message: req.t('server.videos.saved') }),
  );

  app.delete('/admin/:id', { schema: { tags, summary: 'Delete a video (admins)', params: VideoIdParams, response: { 200: MessageOut } } }, async (req) => {
    await videos.delete(currentUser(req), req.params.id);
    return { message: req.t('server.videos.deleted') };
  });
};

export default videosRoutes;
