import fp from 'fastify-plugin';
import { Datasets } from '../engine/datasets';
import { DatasetMaterializer } from '../modules/datasets/materializer';

declare module 'fastify' {
  interface FastifyInstance {
    /** DuckDB over the datasets' Parquet snapshots (engine/datasets); opened on first use. */
    datasets: Datasets;
  }
}

/** The process's dataset layer, over the configured storage, closed with the app. */
export default fp(
  async (app) => {
    const datasets = new Datasets({ storage: app.storage, config: app.config.datasets, log: app.log });
    // A deferred dataset's snapshot is written the first time something opens it.
    new DatasetMaterializer(app.db, datasets, app.log).install();
    app.decorate('datasets', datasets);
    app.addHook('onClose', async () => datasets.close());
  },
  { name: 'datasets', dependencies: ['storage', 'database'] },
);
