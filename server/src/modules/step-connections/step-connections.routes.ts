import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Id, Notices } from '../../http/common.schemas';
import { expectedVersion, setVersionTag } from '../../http/versioning';
import { currentUser } from '../../plugins/authentication';
import { Position, StepOut } from '../steps/steps.schemas';
import { inputLimitsOf } from '../workflows/workflows.service';
import { StepConnectionsService } from './step-connections.service';

const tags = ['Step connections'];
const Params = Type.Object({ id: Id });

/** Registered under /api/v1/workflows. */
const stepConnectionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const connections = new StepConnectionsService(app.db);

  app.post(
    '/:id/steps/insert-by-tags',
    {
      schema: {
        tags,
        summary: 'Insert the catalogue steps carrying these tags, chained in after a step',
        params: Params,
        body: Type.Object(
          {
            tags: Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { minItems: 1, maxItems: 10 }),
            after_step_id: Type.Optional(Id),
            position: Type.Optional(Position),
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Object({ steps: Type.Array(StepOut), workflow_version: Type.Integer(), ...Notices }) },
      },
    },
    async (req, reply) => {
      const ctx = { workflowId: req.params.id, userId: currentUser(req).id, expectedVersion: expectedVersion(req) };
      const { steps, workflowVersion } = await connections.insertByTags(ctx, req.body.tags, req.body.after_step_id, req.body.position);
      setVersionTag(reply, workflowVersion);
      return reply.code(201).send({ steps, workflow_version: workflowVersion, message: req.t('server.connections.inserted', { count: steps.length }) });
    },
  );

  app.delete(
    '/:id/steps/batch',
    {
      schema: {
        tags,
        summary: 'Delete several steps, reconnecting what read from them where possible',
        params: Params,
        querystring: Type.Object({
          step_ids: Type.Array(Type.String({ minLength: 1, maxLength: 20_000 }), {
            minItems: 1,
            maxItems: 500,
            description: 'Repeat the parameter or separate ids with commas',
          }),
        }),
        response: {
          200: Type.Object({
            deleted: Type.Array(Type.String()),
            rewired: Type.Array(Type.Object({ step_id: Type.String(), inputs: Type.Array(Type.String()) })),
            workflow_version: Type.Integer(),
            ...Notices,
          }),
        },
      },
    },
    async (req, reply) => {
      const ctx = { workflowId: req.params.id, userId: currentUser(req).id, expectedVersion: expectedVersion(req) };
      const ids = [...new Set(req.query.step_ids.flatMap((id) => id.split(',')).filter(Boolean))];
      const result = await connections.deleteBatch(ctx, ids, inputLimitsOf);
      setVersionTag(reply, result.workflowVersion);
      return {
        deleted: result.deleted,
        rewired: result.rewired,
        workflow_version: result.workflowVersion,
        message: req.t('server.connections.deleted', { count: result.deleted.length }),
        warnings: result.lost.map((l) => req.t('server.connections.inputLost', { step: l.step, removed: l.removed })),
      };
    },
  );
};

export default stepConnectionsRoutes;
