import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { EndpointId } from '../hooks/endpoints';
import type { RequestContext } from '../hooks/plugin-api';
import type { Logger } from '../logging';
import type { WireFormat } from '../unified/unified-request';
import type { AbortSource } from '../upstream/upstream-client';
import { ClientAbort } from './client-abort';
import type { GatewayRuntime } from './gateway-runtime';

/** Every field of a context but `signal` and `log`, which core's contexts make on demand. */
type ContextFields = Omit<RequestContext, 'signal' | 'log'>;

/**
 * Core's per-request context. A class, so `signal` and `log` can be prototype getters: the AbortSignal and the
 * request's child logger are made only for code that asks for them (see ClientAbort; most requests log nothing but
 * their access line, which is not written through the context). The fields are the interface's (declaration
 * merging), assigned from one literal in one order, so every context shares one hidden class. `{ ...ctx }` copies
 * own fields only; the one copy core makes (detachContext) sets its own `signal` and `log`.
 */
interface GatewayRequestContext extends ContextFields {}
class GatewayRequestContext implements RequestContext {
  readonly clientAbort = new ClientAbort();
  #log: Logger | undefined;

  constructor(
    fields: ContextFields,
    private readonly parentLog: Logger,
  ) {
    Object.assign(this, fields);
  }

  get signal(): AbortSignal {
    return this.clientAbort.signal;
  }

  get log(): Logger {
    this.#log ??= this.parentLog.child({ requestId: this.requestId, platform: this.platform });
    return this.#log;
  }
}

interface ContextPlace {
  platform: string;
  endpoint: EndpointId;
  clientFormat?: WireFormat;
  params: Record<string, string>;
}

/** Builds the per-request context; it aborts when the client goes away before the answer ended. */
export function createRequestContext(req: Request, res: Response, runtime: GatewayRuntime, where: ContextPlace): RequestContext {
  const requestId = String(res.locals.requestId ?? randomUUID());
  const ctx = new GatewayRequestContext({
    requestId,
    platform: where.platform,
    endpoint: where.endpoint,
    clientFormat: where.clientFormat,
    headers: req.headers,
    // Express parses the query string on every read of `req.query`: most requests have none.
    query: req.url.includes('?') ? flattenQuery(req.query as Record<string, unknown>) : {},
    params: where.params,
    store: runtime.store,
    upstream: runtime.upstream,
    principal: undefined,
    model: undefined,
    stream: false,
    upstreamLatencyMs: undefined,
    failedMidway: undefined,
    state: new Map(),
  }, runtime.log);
  res.once('close', () => {
    if (!res.writableFinished) ctx.clientAbort.abort();
  });
  return ctx;
}

/**
 * What upstream calls made for this context watch: the client's connection without making an AbortSignal for a
 * context core created, the context's own `signal` otherwise (a detached task context, a plugin's copy).
 */
export function abortSourceOf(ctx: RequestContext): AbortSource {
  return ctx instanceof GatewayRequestContext ? ctx.clientAbort : ctx.signal;
}

/** Query values as single strings (the first of repeated keys); nested forms are not used by any endpoint. */
function flattenQuery(query: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') out[key] = first;
  }
  return out;
}
