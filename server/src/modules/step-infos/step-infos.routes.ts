import fastifyEtag from '@fastify/etag';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser } from '../../plugins/authentication';
import { createEmbedder } from './embeddings';
import { StepInfoSearch } from './search.service';
import {
  ByTagPatchIn,
  ByTagPatchOut,
  CategoriesOut,
  CategorizedOut,
  CategoryIdParams,
  CategoryWithInfosOut,
  EnsureEmbeddingsOut,
  StepInfoIdParams,
  StepInfoListQuery,
  StepInfoOut,
  StepInfoPage,
  TagParams,
} from './step-infos.schemas';
import { Prices } from '../usage/prices';
import { StepInfosService } from './step-infos.service';

const tags = ['Step infos'];

/** The step catalogue (spec: Step infos), under /api/v1/workflow-step-infos. */
const stepInfosRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The catalogue changes only with a deploy or an admin's tag edit, and its longest answers are
  // tens of KB: each carries an ETag (a hash of the answer), and a browser asks again with
  // If-None-Match on every use (no-cache) and gets 304 with no body while it is unchanged.
  await app.register(fastifyEtag);
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method === 'GET' && reply.statusCode === 200) reply.header('cache-control', 'private, no-cache');
    return payload;
  });
  const search = new StepInfoSearch(app.db, createEmbedder(app.config.embedding), app.log);
  const stepInfos = new StepInfosService(app.db, search, new Prices(app.config.billing));

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'The catalogue: filter by category and tags, search by meaning with q',
        querystring: StepInfoListQuery,
        response: { 200: StepInfoPage },
      },
    },
    async (req) => stepInfos.list(req.query, req.language),
  );

  app.get('/categories', { schema: { tags, summary: 'Categories with how many infos each holds', response: { 200: CategoriesOut } } }, async (req) =>
    stepInfos.categories(req.language),
  );

  app.get(
    '/categories/:id',
    { schema: { tags, summary: 'One category with its infos', params: CategoryIdParams, response: { 200: CategoryWithInfosOut } } },
    async (req) => stepInfos.category(req.params.id, req.language),
  );

  app.get('/categorized', { schema: { tags, summary: 'Every category with its infos', response: { 200: CategorizedOut } } }, async (req) =>
    stepInfos.categorized(req.language),
  );

  app.post(
    '/embeddings/ensure',
    { schema: { tags, summary: 'Embed every info whose text changed (searches also do this by themselves)', response: { 200: EnsureEmbeddingsOut } } },
    async () => search.ensureEmbeddings(),
  );

  app.patch(
    '/by-tag/:tag',
    {
      schema: {
        tags,
        summary: 'Admins: change the name, description, category or tags of every info with this tag',
        params: TagParams,
        body: ByTagPatchIn,
        response: { 200: ByTagPatchOut },
      },
    },
    async (req) => stepInfos.patchByTag(currentUser(req), req.params.tag, req.body, req.language),
  );

  app.get(
    '/:id',
    { schema: { tags, summary: 'One step info: its params, inputs, outputs and cost', params: StepInfoIdParams, response: { 200: StepInfoOut } } },
    async (req) => stepInfos.get(req.params.id, req.language),
  );
};

export default stepInfosRoutes;
