import fp from 'fastify-plugin';
import { Datasets } from '../engine/datasets';

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
    app.decorate('datasets', datasets);
    app.addHook('onClose', async () => datasets.close());
  },
  { name: 'datasets', dependencies: ['storage'] },
);
