import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fp from 'fastify-plugin';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * API answers of 1 KB and more go out compressed when the client accepts it (brotli, else gzip):
 * the step catalogue, pages of records, runs, lists. Brotli runs at quality 4, about gzip's speed
 * at a smaller size (its default, 11, is meant for files compressed once). Left alone: answers
 * already encoded (the web app's files, precompressed at build time), the event streams (hijacked,
 * written as they happen) and types that do not compress (Parquet, ZIP, images); a file download
 * turns it off itself, as its Range answers count bytes of the file as stored.
 */
export default fp(
  async (app) => {
    await app.register(fastifyCompress, {
      global: true,
      threshold: COMPRESS_THRESHOLD_BYTES,
      encodings: ['br', 'gzip'],
      brotliOptions: { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 } },
    });
  },
  { name: 'compression' },
);
