import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import type { Datasets } from '../../engine/datasets';
import { AddressPolicy, createOutboundHttpClient } from '../../engine/outbound-http';
import type { JobQueue } from '../../jobs/queue';
import type { Log } from '../../lib/logger';
import type { SecretBox } from '../../lib/secret-box';
import type { Storage } from '../../storage';
import { RunEngine } from './run-engine';
import { RunEventBus } from './run-events';

export { RunEngine, STEP_RUN_JOB, type RunSnapshot } from './run-engine';
export { RunEventBus } from './run-events';

/**
 * The run engine of one process, for the API (plugins/runs.ts) and `npm run worker` alike: the
 * same job handler, the same outbound HTTP policy, events across processes through Redis.
 */
export function createRunEngine(deps: {
  db: Db;
  storage: Storage;
  config: Config;
  log: Log;
  datasets: Datasets;
  jobs: JobQueue;
  secrets: SecretBox;
  queuePrefix?: string;
}) {
  // Beside the queues' keys: processes sharing a queue share its run events, other installations on
  // the same Redis do not hear them.
  const events = new RunEventBus({ redisUrl: deps.config.redisUrl, channel: `${deps.queuePrefix ?? deps.config.queue.prefix}:run-events`, log: deps.log });
  const http = createOutboundHttpClient({ policy: new AddressPolicy(deps.config.httpSteps) });
  const engine = new RunEngine({ ...deps, http, events });
  return { engine, events };
}
