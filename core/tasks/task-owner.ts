import type { RequestContext } from '../hooks/plugin-api';
import type { ReadOptions } from '../store/store';

/**
 * Who made an image task or a video: the license's id (a digest, never the license). Task and video ids are random,
 * but one that leaks (a log line, a shared link) must not let another license read the result: a record keeps its
 * maker, and answers only that license.
 */
export function ownerOf(ctx: Pick<RequestContext, 'principal'>): string | undefined {
  return ctx.principal?.id;
}

/**
 * Whether this request's license may read what `record` (as read from the store, undefined for none) keeps. No record,
 * or one saved without an owner (by an older build), answers any license. A record whose owner is not a license id,
 * or that is no object at all (a hand edit, a damaged row that still parses), names nobody and answers none.
 */
export function isOwnRecord(ctx: Pick<RequestContext, 'principal'>, record: unknown): boolean {
  if (record === undefined) return true;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return false;
  if (!Object.hasOwn(record, 'owner')) return true;
  const { owner } = record as { owner: unknown };
  return typeof owner === 'string' && owner === ctx.principal?.id;
}

/** `{ owner }` for a record made by this request's license, else nothing (a record without an owner answers any). */
export function withOwner(ctx: Pick<RequestContext, 'principal'>): { owner?: string } {
  const owner = ownerOf(ctx);
  return owner === undefined ? {} : { owner };
}

/**
 * Store reading for a record that says who may read something (`what`, for the warning): one that cannot be read back
 * (a damaged file) names no owner, so it must close the thing to every license, not open it to all as a record-less
 * one of an older build would be. Read with `reading`; `unreadable()` then says whether to answer 404.
 */
export function ownershipReading(ctx: Pick<RequestContext, 'log'>, what: string): { reading: ReadOptions; unreadable(): boolean } {
  let unreadable = false;
  return {
    reading: {
      onUnreadable: (key, error) => {
        unreadable = true;
        ctx.log.warn(`${what} unreadable; answered as not found`, { key, error: error.message });
      },
    },
    unreadable: () => unreadable,
  };
}
