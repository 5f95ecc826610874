import fp from 'fastify-plugin';
import { createJobQueue, type JobQueue } from '../jobs/queue';

declare module 'fastify' {
  interface FastifyInstance {
    /** The run engine's job queue (in memory, or BullMQ on REDIS_URL); see jobs/queue/job-queue.ts. */
    jobs: JobQueue;
  }
}

export interface QueueOptions {
  /** Tests: a Redis key prefix of their own, so parallel test files never take each other's jobs. */
  redisNamespace?: string;
}

/**
 * Decorates `app.jobs` with the configured queue, closed with the app: running jobs finish before
 * the database closes (this plugin is registered after the database, so it closes first).
 */
export default fp<QueueOptions>(
  async (app, options) => {
    const jobs = createJobQueue(app.config, app.log, { prefix: options.redisNamespace && `${options.redisNamespace}:queue` });
    app.decorate('jobs', jobs);
    app.addHook('onClose', async () => jobs.close());
  },
  { name: 'queue', dependencies: ['database'] },
);
