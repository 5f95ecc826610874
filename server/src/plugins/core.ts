import fp from 'fastify-plugin';
import type { Core } from '../composition';

declare module 'fastify' {
  interface FastifyInstance {
    db: Core['db'];
    dialect: Core['dialect'];
    storage: Core['storage'];
    uploadSigner: Core['uploadSigner'];
    datasets: Core['datasets'];
    jobs: Core['jobs'];
    credits: Core['credits'];
    /** Starts and controls runs; with IN_PROCESS_WORKER it also executes them (engine/run). */
    runs: Core['runs'];
    runEvents: Core['runEvents'];
  }
}

/**
 * Hands the routes the process's parts, built by the composition root (composition.ts), and closes
 * them with the app. With IN_PROCESS_WORKER (the embedded default) this process also executes the
 * background work, and once listening requeues the step runs a previous process left unfinished.
 */
export default fp<{ core: Core }>(
  async (app, { core }) => {
    app.decorate('db', core.db);
    app.decorate('dialect', core.dialect);
    app.decorate('storage', core.storage);
    app.decorate('uploadSigner', core.uploadSigner);
    app.decorate('datasets', core.datasets);
    app.decorate('jobs', core.jobs);
    app.decorate('credits', core.credits);
    app.decorate('runs', core.runs);
    app.decorate('runEvents', core.runEvents);
    if (app.config.inProcessWorker) {
      core.startWorking();
      app.addHook('onReady', async () => {
        const requeued = await core.runs.recover();
        if (requeued) app.log.info({ requeued }, 'run engine: requeued unfinished step runs');
      });
    }
    // Before the server stops taking requests' work: steps stop at their next check.
    app.addHook('preClose', async () => core.stopSteps());
    app.addHook('onClose', async () => core.close());
  },
  { name: 'core' },
);
