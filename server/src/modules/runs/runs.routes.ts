import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { sendEventStream } from '../../http/event-stream';
import { currentUser } from '../../plugins/authentication';
import {
  ComputeDetailsIn,
  ComputeJobsOut,
  ComputeStepRunIn,
  EventsQuery,
  ExecuteBody,
  ExecuteParams,
  ExecuteQuery,
  IdParams,
  ProgressOut,
  RunControlIn,
  RunListOut,
  RunListQuery,
  StepRunComputeOut,
  StepRunControlIn,
  StepRunControlOut,
  StepRunParams,
  WorkflowRunOut,
} from './runs.schemas';
import { RunListService } from './run-list.service';
import { RunsService } from './runs.service';

/**
 * The Runs, Execution and Compute jobs calls (spec §6), registered under /api/v1. Every id is
 * looked up with its owner: another user's run or step run is not found.
 */
const runsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const engine = app.runs;
  const runs = new RunsService(engine, app.runEvents);
  const runList = new RunListService(app.db);
  const t = (req: FastifyRequest) => req.t.bind(req);

  // ---- Execution ----

  app.post(
    '/workflow-execution/:workflowId/steps/:stepId/execute',
    {
      schema: {
        tags: ['Execution'],
        summary: 'Run this step, up to it, from it, or the whole workflow (mode), optionally on a sample of the first N records',
        params: ExecuteParams,
        querystring: ExecuteQuery,
        body: ExecuteBody,
        response: { 202: WorkflowRunOut },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const options = { ...(req.body ?? {}), ...req.query };
      const runId = await engine.start(user.id, req.params.workflowId, req.params.stepId, {
        mode: options.mode ?? 'all',
        sampleSize: options.sample_size ?? null,
      });
      const run = await runs.run(user.id, runId, t(req));
      // A run nobody will take stays queued: say so now rather than let it wait in silence.
      const warnings = (await engine.hasWorkers()) === false ? [req.t('server.runs.noWorker')] : undefined;
      return reply
        .code(202)
        .send({ ...run, message: req.t(options.sample_size ? 'server.runs.previewStarted' : 'server.runs.started'), ...(warnings ? { warnings } : {}) });
    },
  );

  // ---- Runs ----

  app.get(
    '/workflow-runs/',
    {
      schema: {
        tags: ['Runs'],
        summary:
          "The caller's runs across their workflows (or one workflow's), newest first, filtered by state; each with its workflow's name, duration, records, cost and who started it",
        querystring: RunListQuery,
        response: { 200: RunListOut },
      },
    },
    async (req) =>
      runList.list(
        currentUser(req).id,
        { workflowId: req.query.workflow_id, states: req.query.state, page: req.query.page, pageSize: req.query.page_size },
        t(req),
      ),
  );

  app.get(
    '/workflow-runs/:id',
    { schema: { tags: ['Runs'], summary: 'A run with its step runs and their progress', params: IdParams, response: { 200: WorkflowRunOut } } },
    async (req) => runs.run(currentUser(req).id, req.params.id, t(req)),
  );

  app.post(
    '/workflow-runs/:id/control',
    {
      schema: {
        tags: ['Runs'],
        summary: 'Pause, resume, cancel, or retry what failed',
        params: IdParams,
        body: RunControlIn,
        response: { 200: WorkflowRunOut },
      },
    },
    async (req) => {
      const user = currentUser(req);
      await engine.controlRun(user.id, req.params.id, req.body.action);
      return { ...(await runs.run(user.id, req.params.id, t(req))), message: req.t(`server.runs.action.${req.body.action}`) };
    },
  );

  app.get(
    '/workflow-runs/:id/events',
    {
      schema: {
        tags: ['Runs'],
        summary:
          "The run's events as server-sent events (text/event-stream) until it ends: step_started, step_progress, step_succeeded, step_failed, run_succeeded…",
        params: IdParams,
        querystring: EventsQuery,
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const lastId = Number(req.headers['last-event-id']);
      const after = Number.isInteger(lastId) && lastId >= 0 ? lastId : req.query.after;
      const closed = new AbortController();
      req.raw.once('close', () => closed.abort());
      const stream = runs.events(user.id, req.params.id, after, closed.signal);
      // Ownership is checked before the first byte: a missing run answers 404 as JSON.
      await sendEventStream(reply, stream, {
        onError: (err) => {
          req.log.warn({ err }, 'run events stream failed');
          return undefined;
        },
      });
    },
  );

  app.post(
    '/step-runs/:id/control',
    {
      schema: {
        tags: ['Runs'],
        summary: 'Pause, resume, cancel, retry a failed step run, or retry only its failed records',
        params: IdParams,
        body: StepRunControlIn,
        response: { 200: StepRunControlOut },
      },
    },
    async (req) => {
      const user = currentUser(req);
      await engine.controlStepRun(user.id, req.params.id, req.body.action);
      return { ...(await runs.stepRun(user.id, req.params.id, t(req))), message: req.t(`server.runs.action.${req.body.action}`) };
    },
  );

  app.get(
    '/step-runs/:id/progress',
    { schema: { tags: ['Runs'], summary: 'Records done and total, percentage, rate, ETA', params: IdParams, response: { 200: ProgressOut } } },
    async (req) => runs.progress(currentUser(req).id, req.params.id, t(req)),
  );

  // ---- Compute jobs ----

  app.post(
    '/compute-jobs/compute-jobs/details',
    {
      schema: {
        tags: ['Compute jobs'],
        summary: 'The compute jobs (attempts on a worker: CPU, memory, log) of some step runs',
        body: ComputeDetailsIn,
        response: { 200: ComputeJobsOut },
      },
    },
    async (req) => ({ items: await runs.computeJobs(currentUser(req).id, req.body.step_run_ids, t(req)) }),
  );

  app.post(
    '/compute-jobs/compute-jobs/start',
    {
      schema: {
        tags: ['Compute jobs'],
        summary: "Start the step run's work again: a stopped (paused) one continues after its last finished batch, a failed or cancelled one is retried",
        body: ComputeStepRunIn,
        response: { 200: StepRunComputeOut },
      },
    },
    async (req) => {
      const user = currentUser(req);
      const stepRun = await runs.stepRun(user.id, req.body.step_run_id, t(req));
      await engine.controlStepRun(user.id, stepRun.id, stepRun.state === 'paused' ? 'resume' : 'retry');
      return {
        step_run: await runs.stepRun(user.id, stepRun.id, t(req)),
        items: await runs.computeJobs(user.id, [stepRun.id], t(req)),
        message: req.t('server.runs.computeStarted'),
      };
    },
  );

  app.post(
    '/compute-jobs/compute-jobs/stop',
    {
      schema: {
        tags: ['Compute jobs'],
        summary: "Stop the step run's work (it is paused: finished batches are kept, start continues it)",
        body: ComputeStepRunIn,
        response: { 200: StepRunComputeOut },
      },
    },
    async (req) => {
      const user = currentUser(req);
      await engine.controlStepRun(user.id, req.body.step_run_id, 'pause');
      return {
        step_run: await runs.stepRun(user.id, req.body.step_run_id, t(req)),
        items: await runs.computeJobs(user.id, [req.body.step_run_id], t(req)),
        message: req.t('server.runs.computeStopped'),
      };
    },
  );

  app.get(
    '/compute-jobs/step-runs/:stepRunId/details',
    { schema: { tags: ['Compute jobs'], summary: 'A step run and its compute jobs', params: StepRunParams, response: { 200: StepRunComputeOut } } },
    async (req) => {
      const user = currentUser(req);
      const stepRun = await runs.stepRun(user.id, req.params.stepRunId, t(req));
      return { step_run: stepRun, items: await runs.computeJobs(user.id, [stepRun.id], t(req)) };
    },
  );
};

export default runsRoutes;
