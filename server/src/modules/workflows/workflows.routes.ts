import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Id, MessageOut } from '../../http/common.schemas';
import { expectedVersion, setVersionTag } from '../../http/versioning';
import { currentUser } from '../../plugins/authentication';
import {
  PublicWorkflowDetailOut,
  PublicWorkflowPage,
  PublicWorkflowQuery,
  PublishQuery,
  WorkflowCreateIn,
  WorkflowInfoOut,
  WorkflowListQuery,
  WorkflowOut,
  WorkflowPage,
  WorkflowUpdateIn,
} from './workflows.schemas';
import { WorkflowsService } from './workflows.service';

const tags = ['Workflows'];
const IdParams = Type.Object({ id: Id });

const workflowsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const workflows = new WorkflowsService(app.db);

  app.get(
    '/',
    { schema: { tags, summary: 'My workflows: search, sort, page', querystring: WorkflowListQuery, response: { 200: WorkflowPage } } },
    async (req) => workflows.list(currentUser(req).id, req.query),
  );

  app.post('/', { schema: { tags, summary: 'Create a workflow', body: WorkflowCreateIn, response: { 201: WorkflowOut } } }, async (req, reply) => {
    const workflow = await workflows.create(currentUser(req).id, req.body);
    setVersionTag(reply, workflow.version);
    return reply.code(201).send({ ...workflow, message: req.t('server.workflows.created') });
  });

  app.get(
    '/public',
    {
      config: { public: true },
      schema: { tags, summary: 'The public gallery (no sign-in needed)', querystring: PublicWorkflowQuery, response: { 200: PublicWorkflowPage } },
    },
    async (req) => workflows.listPublic(req.query),
  );

  app.get(
    '/public/:id',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "One workflow of the gallery as published, with its steps and connections (no sign-in needed; secrets and the author's files withheld)",
        params: IdParams,
        response: { 200: PublicWorkflowDetailOut },
      },
    },
    async (req) => workflows.getPublic(req.params.id, req.language),
  );

  app.get(
    '/:id',
    { schema: { tags, summary: 'A workflow with its steps and variables', params: IdParams, response: { 200: WorkflowOut } } },
    async (req, reply) => {
      const workflow = await workflows.get(currentUser(req).id, req.params.id);
      setVersionTag(reply, workflow.version);
      return workflow;
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Change name, description or tags (If-Match or version guards stale writes)',
        params: IdParams,
        body: WorkflowUpdateIn,
        response: { 200: WorkflowOut },
      },
    },
    async (req, reply) => {
      const workflow = await workflows.update(
        { workflowId: req.params.id, userId: currentUser(req).id, expectedVersion: expectedVersion(req, req.body.version) },
        req.body,
      );
      setVersionTag(reply, workflow.version);
      return workflow;
    },
  );

  app.delete(
    '/:id',
    { schema: { tags, summary: 'Delete a workflow and its history (If-Match refuses a stale delete)', params: IdParams, response: { 200: MessageOut } } },
    async (req) => {
      await workflows.delete(currentUser(req).id, req.params.id, expectedVersion(req));
      return { message: req.t('server.workflows.deleted') };
    },
  );

  app.post(
    '/:id/publish',
    {
      schema: {
        tags,
        summary: 'Publish to the gallery (published=false to unpublish; If-Match publishes only the version seen)',
        params: IdParams,
        querystring: PublishQuery,
        response: { 200: WorkflowOut },
      },
    },
    async (req, reply) => {
      const workflow = await workflows.publish(currentUser(req).id, req.params.id, req.query.published, expectedVersion(req));
      setVersionTag(reply, workflow.version);
      return { ...workflow, message: req.t(req.query.published ? 'server.workflows.published' : 'server.workflows.unpublished') };
    },
  );

  app.get(
    '/:id/info',
    { schema: { tags, summary: 'Step count, last run, datasets, estimated cost', params: IdParams, response: { 200: WorkflowInfoOut } } },
    async (req) => workflows.info(currentUser(req).id, req.params.id, req.language),
  );
};

export default workflowsRoutes;
