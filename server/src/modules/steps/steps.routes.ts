import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Id } from '../../http/common.schemas';
import { expectedVersion, setVersionTag } from '../../http/versioning';
import { DatasetsService } from '../datasets/datasets.service';
import { DatasetOut } from '../datasets/datasets.schemas';
import { currentUser } from '../../plugins/authentication';
import { FromTemplateQuery, ParamInputsIn, StepCreateIn, StepListQuery, StepOut, StepUpdateIn, StepWithVersionOut } from './steps.schemas';
import { StepsService, type StepResult } from './steps.service';

const tags = ['Steps'];
const IdParams = Type.Object({ id: Id });
const includeLineage = { include_lineage: Type.Boolean({ default: false }) };
const InputDatasetQuery = Type.Object(
  {
    input: Type.Integer({ minimum: 0, maximum: 49, default: 0, description: "Which of the step's inputs (join and union have several)" }),
    ...includeLineage,
  },
  { additionalProperties: false },
);
const OutputDatasetQuery = Type.Object(includeLineage, { additionalProperties: false });

/** A step answer: the step, the workflow version it produced (also as ETag). */
function answer(reply: FastifyReply, { step, workflowVersion }: StepResult, code = 200) {
  setVersionTag(reply, workflowVersion);
  return reply.code(code).send({ ...step, workflow_version: workflowVersion });
}

const versionOf = (req: FastifyRequest) => expectedVersion(req);

const stepsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const steps = new StepsService(app.db);
  const datasets = new DatasetsService(app.db, app.datasets);

  app.get('/', { schema: { tags, summary: "A workflow's steps", querystring: StepListQuery, response: { 200: Type.Array(StepOut) } } }, async (req) =>
    steps.list(currentUser(req).id, req.query.workflow_id),
  );

  app.post(
    '/',
    { schema: { tags, summary: 'Add a step of a catalogue type', body: StepCreateIn, response: { 201: StepWithVersionOut } } },
    async (req, reply) => {
      const { workflow_id, ...input } = req.body;
      return answer(
        reply,
        await steps.create({ workflowId: workflow_id, userId: currentUser(req).id, expectedVersion: versionOf(req) }, input, req.language),
        201,
      );
    },
  );

  app.post(
    '/from-template',
    {
      schema: {
        tags,
        summary: 'Add a step from a step info with its defaults (optionally after a step, connected)',
        querystring: FromTemplateQuery,
        response: { 201: StepWithVersionOut },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const result = await steps.create(
        { workflowId: q.workflow_id, userId: currentUser(req).id, expectedVersion: versionOf(req) },
        {
          step_type: q.step_info_id,
          name: q.name,
          after_step_id: q.after_step_id,
          position: q.x !== undefined && q.y !== undefined ? { x: q.x, y: q.y } : undefined,
        },
        req.language,
      );
      return answer(reply, result, 201);
    },
  );

  app.get('/:id', { schema: { tags, summary: 'A step', params: IdParams, response: { 200: StepWithVersionOut } } }, async (req, reply) =>
    answer(reply, await steps.get(currentUser(req).id, req.params.id)),
  );

  app.put(
    '/:id',
    { schema: { tags, summary: 'Change a step: name, params, inputs, position', params: IdParams, body: StepUpdateIn, response: { 200: StepWithVersionOut } } },
    async (req, reply) => answer(reply, await steps.update(currentUser(req).id, req.params.id, versionOf(req), req.body)),
  );

  app.patch(
    '/:id/param-inputs',
    {
      schema: {
        tags,
        summary: 'Replace all param values (validated against the step type)',
        params: IdParams,
        body: ParamInputsIn,
        response: { 200: StepWithVersionOut },
      },
    },
    async (req, reply) => answer(reply, await steps.replaceParams(currentUser(req).id, req.params.id, versionOf(req), req.body.param_inputs)),
  );

  app.patch(
    '/:id/param-inputs/partial',
    { schema: { tags, summary: 'Merge param values; null removes one', params: IdParams, body: ParamInputsIn, response: { 200: StepWithVersionOut } } },
    async (req, reply) => answer(reply, await steps.mergeParams(currentUser(req).id, req.params.id, versionOf(req), req.body.param_inputs)),
  );

  app.get(
    '/:id/input-dataset',
    {
      schema: {
        tags,
        summary: 'The dataset this step reads: the newest output of its input step (after that step has run)',
        params: IdParams,
        querystring: InputDatasetQuery,
        response: { 200: DatasetOut },
      },
    },
    async (req) => {
      const userId = currentUser(req).id;
      const datasetId = await steps.inputDatasetId(userId, req.params.id, req.query.input);
      return datasets.get(userId, datasetId, { includeLineage: req.query.include_lineage });
    },
  );

  app.get(
    '/:id/output-dataset',
    {
      schema: {
        tags,
        summary: "The dataset this step wrote last: its newest output over the workflow's runs (404 before it has run)",
        params: IdParams,
        querystring: OutputDatasetQuery,
        response: { 200: DatasetOut },
      },
    },
    async (req) => {
      const userId = currentUser(req).id;
      const datasetId = await steps.outputDatasetId(userId, req.params.id);
      return datasets.get(userId, datasetId, { includeLineage: req.query.include_lineage });
    },
  );
};

export default stepsRoutes;
