import type { FailureKind } from '../lib/errors';

/** The HTTP status of each kind of domain failure: the one place services' errors meet HTTP. */
export const statusOf: Record<FailureKind, number> = {
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  unauthenticated: 401,
  too_large: 413,
  rejected: 400,
  upstream_failed: 502,
  payment_required: 402,
};
