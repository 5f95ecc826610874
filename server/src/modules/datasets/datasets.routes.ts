import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser } from '../../plugins/authentication';
import { DatasetOut, DatasetParams, DatasetQuery, RecordOut, RecordParams, RecordsPageOut, RecordsQueryIn } from './datasets.schemas';
import { DatasetsService } from './datasets.service';
import { recordsQueryOf } from './http-records-query';

const tags = ['Datasets'];

/** Registered under /api/v1/datasets: one dataset, its records, one record (spec §6, Datasets). */
const datasetsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const datasets = new DatasetsService(app.db, app.datasets);

  app.get(
    '/:datasetId',
    { schema: { tags, summary: 'A dataset: name, columns and types, row count, size, the step run that made it, its parents', params: DatasetParams, querystring: DatasetQuery, response: { 200: DatasetOut } } },
    async (req) => datasets.get(currentUser(req).id, req.params.datasetId, { includeLineage: req.query.include_lineage }),
  );

  app.get(
    '/:datasetId/records',
    {
      schema: {
        tags,
        summary: 'A page of records, sorted, filtered and narrowed to some columns, read straight from the snapshot',
        params: DatasetParams,
        querystring: RecordsQueryIn,
        response: { 200: RecordsPageOut },
      },
    },
    async (req) => datasets.records(currentUser(req).id, req.params.datasetId, recordsQueryOf(req.query), ['query']),
  );

  app.get('/:datasetId/record/:recordId', { schema: { tags, summary: 'One record by its `_id`', params: RecordParams, response: { 200: RecordOut } } }, async (req) =>
    datasets.record(currentUser(req).id, req.params.datasetId, req.params.recordId),
  );
};

export default datasetsRoutes;
