import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getStepDescription } from '../../engine/step-types';
import { Id } from '../../http/common.schemas';
import type { Language } from '../../i18n/messages';
import { expectedVersion, setVersionTag } from '../../http/versioning';
import { currentUser } from '../../plugins/authentication';
import { StepWithVersionOut } from '../steps/steps.schemas';
import { WorkflowOut } from '../workflows/workflows.schemas';
import { CloneService } from './clone.service';

const tags = ['Clone'];

/** The params' labels as the step form shows them, in the caller's language, as one list. */
function paramLabels(stepType: string, params: string[], language: Language): string {
  const type = getStepDescription(stepType);
  const zh = language === 'zh-CN' ? type?.i18n?.['zh-CN']?.params : undefined;
  const labels = params.map((name) => zh?.[name]?.label ?? type?.params.find((p) => p.name === name)?.label ?? name);
  return labels.join(language === 'zh-CN' ? '、' : ', ');
}
const Name = Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }));

/** Registered at /api/v1: the clone calls live under two areas' paths. */
const cloneRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const clones = new CloneService(app.db);

  app.post(
    '/workflows/:id/clone',
    {
      schema: {
        tags,
        summary: 'Copy a workflow (yours, or a published one) into your account',
        params: Type.Object({ id: Id }),
        querystring: Type.Object({ name: Name }),
        response: { 201: WorkflowOut },
      },
    },
    async (req, reply) => {
      const { workflow, dropped } = await clones.cloneWorkflow(currentUser(req).id, req.params.id, req.query.name, (name) =>
        req.t('server.clone.copyOf', { name }),
      );
      setVersionTag(reply, workflow.version);
      const warnings = [
        ...dropped.steps.map((step) =>
          req.t('server.clone.settingsDropped', { step: step.name, params: paramLabels(step.stepType, step.params, req.language) }),
        ),
        ...dropped.variables.map((variable) => req.t('server.clone.variableCleared', { variable })),
      ];
      return reply.code(201).send({ ...workflow, message: req.t('server.clone.workflowCloned'), ...(warnings.length ? { warnings } : {}) });
    },
  );

  app.post(
    '/workflow-steps/:id/clone',
    {
      schema: {
        tags,
        summary: 'Copy a step, into its workflow or another of yours',
        params: Type.Object({ id: Id }),
        querystring: Type.Object({ name: Name, workflow_id: Type.Optional(Id) }),
        response: { 201: StepWithVersionOut },
      },
    },
    async (req, reply) => {
      const { step, workflowVersion } = await clones.cloneStep(currentUser(req).id, req.params.id, req.query.workflow_id, req.query.name, expectedVersion(req));
      setVersionTag(reply, workflowVersion);
      return reply.code(201).send({ ...step, workflow_version: workflowVersion });
    },
  );
};

export default cloneRoutes;
