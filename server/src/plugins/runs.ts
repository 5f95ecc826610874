import fp from 'fastify-plugin';
import { createRunEngine, type RunEngine, type RunEventBus } from '../modules/runs';

declare module 'fastify' {
  interface FastifyInstance {
    /** Starts and controls runs; with IN_PROCESS_WORKER it also executes them (modules/runs). */
    runs: RunEngine;
    runEvents: RunEventBus;
  }
}

export interface RunsPluginOptions {
  /** Tests: the Redis namespace the queue plugin got (its queues live under `<namespace>:queue`). */
  redisNamespace?: string;
}

/**
 * The run engine. With IN_PROCESS_WORKER (the embedded default) this process also takes step-run
 * jobs, and once listening it requeues the step runs a previous process left unfinished.
 */
export default fp<RunsPluginOptions>(
  async (app, options) => {
    const { engine, events } = createRunEngine({
      db: app.db,
      storage: app.storage,
      config: app.config,
      log: app.log,
      datasets: app.datasets,
      jobs: app.jobs,
      secrets: app.secrets,
      queuePrefix: options.redisNamespace && `${options.redisNamespace}:queue`,
    });
    app.decorate('runs', engine);
    app.decorate('runEvents', events);
    // Credits arrived (a purchase, a grant, an adjustment): runs paused because they ran out go on.
    app.credits.onCredited(async (userId) => {
      const resumed = await engine.resumeForCredits(userId);
      if (resumed) app.log.info({ userId, resumed }, 'run engine: resumed runs paused for credits');
    });
    if (app.config.inProcessWorker) {
      engine.register();
      app.addHook('onReady', async () => {
        const requeued = await engine.recover();
        if (requeued) app.log.info({ requeued }, 'run engine: requeued unfinished step runs');
      });
    }
    // Before the queue closes (it waits for running jobs): steps stop at their next check.
    app.addHook('preClose', async () => engine.stopAll());
    app.addHook('onClose', async () => events.close());
  },
  { name: 'runs', dependencies: ['database', 'datasets', 'queue', 'credits'] },
);
