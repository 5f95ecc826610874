import fs from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser } from '../../plugins/authentication';
import { contentDisposition } from '../files/http-download';
import {
  CompareOut,
  CompareQueryIn,
  DatasetListOut,
  DatasetListQueryIn,
  DatasetOut,
  DatasetParams,
  SiblingsOut,
  ColumnValuesOut,
  ColumnValuesQuery,
  DatasetQuery,
  DownloadQuery,
  RecordOut,
  RecordParams,
  RecordsPageOut,
  RecordsQueryIn,
} from './datasets.schemas';
import { DatasetsService } from './datasets.service';
import { exportViewOf, recordsQueryOf } from './http-records-query';

const tags = ['Datasets'];
const contentTypes = { csv: 'text/csv; charset=utf-8', parquet: 'application/vnd.apache.parquet' } as const;
const fileBody = (description: string) => ({
  description,
  content: Object.fromEntries(Object.values(contentTypes).map((type) => [type.split(';')[0], { schema: { type: 'string', format: 'binary' } }])),
});

/** Registered under /api/v1/datasets: the caller's datasets, one dataset, its records, one record (spec §6, Datasets). */
const datasetsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const datasets = new DatasetsService(app.db, app.datasets);

  // Before the '/:datasetId' routes, so the list is the answer to the bare prefix.
  app.get(
    '/',
    {
      schema: {
        tags,
        summary:
          'Your datasets that have not expired, newest first, each with the workflow and step that made it (null when made outside a run): what a step can use',
        description: '`q` keeps the datasets whose name contains it, ignoring case.',
        querystring: DatasetListQueryIn,
        response: { 200: DatasetListOut },
      },
    },
    async (req) => datasets.list(currentUser(req).id, { page: req.query.page, pageSize: req.query.page_size, q: req.query.q }),
  );

  app.get(
    '/:datasetId',
    {
      schema: {
        tags,
        summary: 'A dataset: name, columns and types, row count, size, the step run that made it, its parents',
        params: DatasetParams,
        querystring: DatasetQuery,
        response: { 200: DatasetOut },
      },
    },
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

  app.get(
    '/:datasetId/record/:recordId',
    { schema: { tags, summary: 'One record by its `_id`', params: RecordParams, response: { 200: RecordOut } } },
    async (req) => datasets.record(currentUser(req).id, req.params.datasetId, req.params.recordId),
  );

  app.get(
    '/:datasetId/compare',
    {
      schema: {
        tags,
        summary:
          'What changed from the dataset `with` to this one: columns added, removed or retyped, and records added, removed or changed, matched by the `key` column',
        description:
          'Both datasets must be yours (else 404). `key` must exist in both and hold one distinct, non-null value per record in each; otherwise 422 at `["query","key"]`. ' +
          'Values are compared with IS DISTINCT FROM (null against null is no change); a column whose type changed is compared by its text; `_id` is compared only when it is the key. ' +
          'The page lists differences ordered by key.',
        params: DatasetParams,
        querystring: CompareQueryIn,
        response: { 200: CompareOut },
      },
    },
    async (req) => {
      const { with: withId, key, page, page_size: pageSize, show } = req.query;
      return datasets.compare(currentUser(req).id, req.params.datasetId, withId, { key, page, pageSize, show }, ['query']);
    },
  );

  app.get(
    '/:datasetId/siblings',
    {
      schema: {
        tags,
        summary:
          'Other datasets made by the same step of the same workflow (earlier and later runs, samples too), newest first, at most 50: what this one can be compared with',
        params: DatasetParams,
        response: { 200: SiblingsOut },
      },
    },
    async (req) => datasets.siblings(currentUser(req).id, req.params.datasetId),
  );

  app.get(
    '/:datasetId/values',
    {
      schema: {
        tags,
        summary: "A column's most frequent values with their counts, and how many distinct values it has (a pivot's new columns are chosen from them)",
        params: DatasetParams,
        querystring: ColumnValuesQuery,
        response: { 200: ColumnValuesOut },
      },
    },
    async (req) => datasets.values(currentUser(req).id, req.params.datasetId, req.query.column, req.query.limit),
  );

  app.get(
    '/:datasetId/download',
    {
      schema: {
        tags,
        summary: 'The dataset as a CSV or Parquet file, whole or as a grid shows it (streamed, Content-Disposition with the dataset name)',
        description: "A CSV's cells that a spreadsheet would run as formulas are written with a `'` in front unless `raw=true`.",
        params: DatasetParams,
        querystring: DownloadQuery,
        response: { 200: fileBody('The dataset as a file') },
      },
    },
    async (req, reply) => {
      const { format, raw } = req.query;
      const { file, fileName } = await datasets.download(currentUser(req).id, req.params.datasetId, format, { raw, view: exportViewOf(req.query) });
      const stream = fs.createReadStream(file.path);
      // Sent, aborted or failed: the snapshot lease or the temporary CSV goes with the stream.
      stream.once('close', () => void file.done());
      reply.header('content-type', contentTypes[format]).header('content-disposition', contentDisposition('attachment', fileName));
      reply.header('content-length', file.bytes).header('cache-control', 'private, no-store').header('x-content-type-options', 'nosniff');
      return reply.send(stream);
    },
  );
};

export default datasetsRoutes;
