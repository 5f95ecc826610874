import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Id, MessageOut } from '../../http/common.schemas';
import { expectedVersion, setVersionTag } from '../../http/versioning';
import { currentUser } from '../../plugins/authentication';
import { VariableCreateIn, VariableFieldsOut, VariableOut, VariableUpdateIn, VariableWithVersionOut } from './variables.schemas';
import { VariablesService } from './variables.service';

const tags = ['Variables'];
const WorkflowParams = Type.Object({ id: Id });
const VariableParams = Type.Object({ id: Id, varId: Id });
const StepParams = Type.Object({ id: Id, stepId: Id });

/** Registered under /api/v1/workflows: the variables of one workflow. */
const variablesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const variables = new VariablesService(app.db, app.secrets);

  app.get(
    '/:id/variables',
    {
      schema: {
        tags,
        summary: "A workflow's variables (secret values are never returned)",
        params: WorkflowParams,
        response: { 200: Type.Array(VariableOut) },
      },
    },
    async (req) => variables.list(currentUser(req).id, req.params.id),
  );

  app.post(
    '/:id/variables',
    { schema: { tags, summary: 'Add a typed variable', params: WorkflowParams, body: VariableCreateIn, response: { 201: VariableWithVersionOut } } },
    async (req, reply) => {
      const { variable, workflowVersion } = await variables.create(
        { workflowId: req.params.id, userId: currentUser(req).id, expectedVersion: expectedVersion(req) },
        req.body,
      );
      setVersionTag(reply, workflowVersion);
      return reply.code(201).send({ ...variable, workflow_version: workflowVersion });
    },
  );

  app.get('/:id/variables/:varId', { schema: { tags, summary: 'A variable', params: VariableParams, response: { 200: VariableOut } } }, async (req) =>
    variables.get(currentUser(req).id, req.params.id, req.params.varId),
  );

  app.put(
    '/:id/variables/:varId',
    { schema: { tags, summary: 'Change a variable', params: VariableParams, body: VariableUpdateIn, response: { 200: VariableWithVersionOut } } },
    async (req, reply) => {
      const { variable, workflowVersion } = await variables.update(
        { workflowId: req.params.id, userId: currentUser(req).id, expectedVersion: expectedVersion(req) },
        req.params.varId,
        req.body,
      );
      setVersionTag(reply, workflowVersion);
      return { ...variable, workflow_version: workflowVersion };
    },
  );

  app.delete(
    '/:id/variables/:varId',
    { schema: { tags, summary: 'Delete a variable', params: VariableParams, response: { 200: MessageOut } } },
    async (req, reply) => {
      const version = await variables.delete(
        { workflowId: req.params.id, userId: currentUser(req).id, expectedVersion: expectedVersion(req) },
        req.params.varId,
      );
      setVersionTag(reply, version);
      return { message: req.t('server.variables.deleted') };
    },
  );

  app.get(
    '/:id/steps/:stepId/variable-fields',
    { schema: { tags, summary: 'What a step may reference: {{var.x}} and {{field.y}}', params: StepParams, response: { 200: VariableFieldsOut } } },
    async (req) => {
      const fields = await variables.variableFields(currentUser(req).id, req.params.id, req.params.stepId);
      return { ...fields, notes: fields.notes.map((key) => req.t(key)) };
    },
  );
};

export default variablesRoutes;
