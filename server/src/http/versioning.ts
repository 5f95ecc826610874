import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../lib/http-error';

/**
 * Optimistic concurrency for workflows: responses carry `ETag: "<version>"`; a client that sends it
 * back as `If-Match` (or a `version` field where a body has one) has its write refused with 409 when
 * the workflow moved on meanwhile, instead of silently overwriting someone else's change.
 */
export function expectedVersion(req: FastifyRequest, bodyVersion?: number): number | undefined {
  if (bodyVersion !== undefined) return bodyVersion;
  const header = req.headers['if-match'];
  if (header === undefined || header === '*') return undefined;
  const match = /^(?:W\/)?"?(\d{1,12})"?$/.exec(String(header).trim());
  if (!match) throw new HttpError(400, 'server.workflows.badIfMatch');
  return Number(match[1]);
}

export function setVersionTag(reply: FastifyReply, version: number): void {
  reply.header('etag', `"${version}"`);
}
