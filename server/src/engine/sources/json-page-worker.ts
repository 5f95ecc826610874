import { parentPort } from 'node:worker_threads';
import { readPage, type PageJob } from './json-page';

/**
 * The entry of the worker thread that reads an import_http_json step's large pages (see
 * json-page-reader.ts): one page at a time, its bytes and job in, its records as JSON Lines out.
 * The step ends the thread when it ends or is stopped.
 */
const port = parentPort;
if (!port) throw new Error('json-page-worker must run in a worker thread');
port.on('message', ({ bytes, job }: { bytes: Uint8Array; job: PageJob }) => port.postMessage(readPage(bytes, job)));
