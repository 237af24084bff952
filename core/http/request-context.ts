import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Request, Response } from 'express';
import type { EndpointId } from '../hooks/endpoints';
import type { Principal, RequestContext } from '../hooks/plugin-api';
import type { Logger } from '../logging';
import type { Store } from '../store/store';
import type { WireFormat } from '../unified/unified-request';
import type { AbortSource, UpstreamClient } from '../upstream/upstream-client';
import { ClientAbort } from './client-abort';
import type { GatewayRuntime } from './gateway-runtime';

/**
 * Core's per-request context. A class, so every context shares one hidden class (fields assigned in one order) and
 * `signal` can be a prototype getter: the AbortSignal is made only for code that asks for it (see ClientAbort).
 * `{ ...ctx }` copies own fields only; the one copy core makes (detachContext) sets its own `signal`.
 */
class GatewayRequestContext implements RequestContext {
  readonly requestId: string;
  readonly platform: string;
  readonly endpoint: EndpointId;
  readonly clientFormat?: WireFormat;
  readonly headers: IncomingHttpHeaders;
  readonly query: Record<string, string>;
  readonly params: Record<string, string>;
  readonly log: Logger;
  readonly store: Store;
  readonly upstream: UpstreamClient;
  readonly state = new Map<string, unknown>();
  readonly clientAbort = new ClientAbort();
  principal?: Principal = undefined;
  model?: string = undefined;
  stream = false;
  upstreamLatencyMs?: number = undefined;

  constructor(req: Request, res: Response, runtime: GatewayRuntime, where: ContextPlace) {
    this.requestId = String(res.locals.requestId ?? randomUUID());
    this.platform = where.platform;
    this.endpoint = where.endpoint;
    this.clientFormat = where.clientFormat;
    this.headers = req.headers;
    this.query = flattenQuery(req.query as Record<string, unknown>);
    this.params = where.params;
    this.log = runtime.log.child({ requestId: this.requestId, platform: where.platform });
    this.store = runtime.store;
    this.upstream = runtime.upstream;
  }

  get signal(): AbortSignal {
    return this.clientAbort.signal;
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
  const ctx = new GatewayRequestContext(req, res, runtime, where);
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
