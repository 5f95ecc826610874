import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Id } from '../../http/common.schemas';
import { expectedVersion, setVersionTag } from '../../http/versioning';
import { currentUser } from '../../plugins/authentication';
import { WorkflowOut } from '../workflows/workflows.schemas';
import { CommitDetailOut, CommitListIn, CommitPage, WorkflowRefIn } from './history.schemas';
import { HistoryService, renderMessage } from './history.service';
import type { CommitMessage, EditWarning } from '../workflows/workflow-editor';

const tags = ['History'];

/** `warnings` in the reader's language, only when there are some. */
const translated = (req: FastifyRequest, warnings: EditWarning[]) => (warnings.length ? { warnings: warnings.map((w) => req.t(w.key, w.values)) } : {});

const historyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const history = new HistoryService(app.db);

  app.post('/commits', { schema: { tags, summary: "A workflow's commits, newest first", body: CommitListIn, response: { 200: CommitPage } } }, async (req) =>
    history.list(currentUser(req).id, req.body.workflow_id, req.body.page, req.body.page_size, req.t.bind(req)),
  );

  app.get(
    '/commits/:id',
    { schema: { tags, summary: 'A commit: what changed and the state after it', params: Type.Object({ id: Id }), response: { 200: CommitDetailOut } } },
    async (req) => history.get(currentUser(req).id, req.params.id, req.t.bind(req)),
  );

  for (const action of ['undo', 'redo'] as const) {
    app.post(
      `/${action}`,
      {
        schema: {
          tags,
          summary: action === 'undo' ? 'Undo the last change of a workflow' : 'Redo the last undone change',
          body: WorkflowRefIn,
          response: { 200: WorkflowOut },
        },
      },
      async (req, reply) => {
        const ctx = { workflowId: req.body.workflow_id, userId: currentUser(req).id, expectedVersion: expectedVersion(req, req.body.version) };
        const { workflow, commit, warnings } = await history[action](ctx);
        setVersionTag(reply, workflow.version);
        return { ...workflow, message: renderMessage(req.t.bind(req), JSON.parse(commit.message) as CommitMessage), ...translated(req, warnings) };
      },
    );
  }

  app.post(
    '/restore/:id',
    { schema: { tags, summary: 'Bring a workflow back to a commit, as a new commit', params: Type.Object({ id: Id }), response: { 200: WorkflowOut } } },
    async (req, reply) => {
      const { workflow, commit, warnings } = await history.restore(currentUser(req).id, req.params.id, expectedVersion(req));
      setVersionTag(reply, workflow.version);
      return { ...workflow, message: renderMessage(req.t.bind(req), JSON.parse(commit.message) as CommitMessage), ...translated(req, warnings) };
    },
  );
};

export default historyRoutes;
