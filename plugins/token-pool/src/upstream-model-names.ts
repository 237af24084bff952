import { isGatewayError, type Logger, type RequestContext } from '@gateway/core';

/** How long a fetched list answers for the names a suffixed model may be. */
const DEFAULT_MAX_AGE_MS = 10 * 60_000;
/** After a failed fetch (an upstream hiccup), how soon a suffixed name may ask again; no list at all waits a whole period. */
const RETRY_AFTER_FAILURE_MS = 60_000;
/** What an upstream answers that has no model list to give. */
const NO_LIST_STATUSES = new Set([400, 404, 405, 410, 501]);
const SUFFIXED = /-(?:thinking|max)$/;
const EMPTY: ReadonlySet<string> = new Set();

/**
 * The model names the upstream serves, as its list last said, plus the operator's extra `models`. Such a name is the
 * upstream's own (`kimi-k2-thinking`, `qwen-max`) and is never cut into a base and the gateway's variant suffixes.
 */
export interface UpstreamModelNames {
  /** The names as last known; empty before any list was read. */
  current(): ReadonlySet<string>;
  /** A list just fetched (by the models endpoint or by `forModel`). */
  record(ids: readonly string[]): void;
  /**
   * The names a request for `model` is parsed against. Only a name ending in a variant suffix can be an upstream's
   * own: for one, a list that is unknown or older than `maxAgeMs` is fetched first (one fetch for concurrent
   * requests); a failed fetch leaves the names as they were, and the suffix is read as the gateway's.
   */
  forModel(model: string, ctx: RequestContext): Promise<ReadonlySet<string>>;
}

export interface UpstreamModelNamesOptions {
  /** The upstream's model ids, fetched with a context of the list's own (see listContext). */
  fetch(ctx: RequestContext): Promise<string[]>;
  extra: readonly string[];
  log: Logger;
  maxAgeMs?: number;
  now?: () => number;
}


export function createUpstreamModelNames(options: UpstreamModelNamesOptions): UpstreamModelNames {
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const now = options.now ?? Date.now;
  let names: ReadonlySet<string> = options.extra.length > 0 ? new Set(options.extra) : EMPTY;
  let fetchedAt: number | undefined;
  let fetching: Promise<ReadonlySet<string>> | undefined;

  const record = (ids: readonly string[]): void => {
    names = new Set([...ids, ...options.extra]);
    fetchedAt = now();
  };

  const refresh = (ctx: RequestContext): Promise<ReadonlySet<string>> => {
    fetching ??= options
      .fetch(listContext(ctx))
      .then((ids) => {
        record(ids);
        return names;
      })
      .catch((error: unknown) => {
        options.log.warn('could not read the upstream model list; variant suffixes are read as the gateway\'s', { reason: error instanceof Error ? error.message : String(error) });
        // Not asked again by every request meanwhile; an upstream without a model list (404) not for a whole period. A
        // rate limit or the pool's own refusal (no usable token) is no answer about the list: asked again soon.
        const refused = isGatewayError(error) && NO_LIST_STATUSES.has(error.status) && error.code !== 'GW_FORBIDDEN';
        fetchedAt = refused ? now() : now() - maxAgeMs + Math.min(RETRY_AFTER_FAILURE_MS, maxAgeMs);
        return names;
      })
      .finally(() => {
        fetching = undefined;
      });
    return fetching;
  };

  return {
    current: () => names,
    record,
    async forModel(model, ctx) {
      if (!SUFFIXED.test(model) || names.has(model)) return names;
      if (fetchedAt !== undefined && now() - fetchedAt < maxAgeMs) return names;
      return refresh(ctx);
    },
  };
}

/**
 * The context of the shared list fetch, made from the request that needed it: not that client's abort (its leaving
 * would fail the fetch for every request waiting on it; the platform's timeouts bound the call), no model (the
 * request's `-max` would ask for a premium token), and scratch state of its own.
 */
export function listContext(ctx: RequestContext): RequestContext {
  return { ...ctx, signal: new AbortController().signal, log: ctx.log, model: undefined, state: new Map() };
}
