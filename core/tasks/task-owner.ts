import type { RequestContext } from '../hooks/plugin-api';

/**
 * Who made an image task or a video: the license's id (a digest, never the license). Task and video ids are random,
 * but one that leaks (a log line, a shared link) must not let another license read the result: a record keeps its
 * maker, and answers only that license.
 */
export function ownerOf(ctx: Pick<RequestContext, 'principal'>): string | undefined {
  return ctx.principal?.id;
}

/** Whether this request's license made the record; a record saved without an owner (by an older build) answers any. */
export function isOwnRecord(ctx: Pick<RequestContext, 'principal'>, owner: unknown): boolean {
  return typeof owner !== 'string' || owner === ctx.principal?.id;
}

/** `{ owner }` for a record made by this request's license, else nothing (a record without an owner answers any). */
export function withOwner(ctx: Pick<RequestContext, 'principal'>): { owner?: string } {
  const owner = ownerOf(ctx);
  return owner === undefined ? {} : { owner };
}
