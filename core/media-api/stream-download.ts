import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../errors/gateway-error';
import type { CustomResult, RequestContext, UpstreamResponse } from '../hooks/plugin-api';
import { abortSourceOf } from '../http/request-context';
import type { UpstreamTimeouts } from '../upstream/upstream-client';

/** Client headers a file download passes upstream: ranges and cache validators. */
const REQUEST_HEADERS = ['range', 'if-range', 'if-none-match', 'if-modified-since'];
/** Upstream headers a file download passes to the client. */
const RESPONSE_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified', 'content-disposition', 'cache-control', 'expires'];
const MAX_REDIRECTS = 3;

/** The headers of an upstream download request: the client's `accept` (or `accept`), ranges and validators. */
export function downloadRequestHeaders(client: IncomingHttpHeaders, accept = 'application/octet-stream'): Record<string, string> {
  const headers: Record<string, string> = { accept: headerText(client.accept) ?? accept };
  for (const name of REQUEST_HEADERS) {
    const value = headerText(client[name]);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

export interface DownloadRedirectOptions {
  /** The URL the first response answered, to resolve relative locations. */
  url: URL;
  ctx: RequestContext;
  timeouts: UpstreamTimeouts;
  /** Sent on every hop (see downloadRequestHeaders). */
  headers: Record<string, string>;
  /**
   * Sends a hop that stays on the upstream's own origin, with its credential; undefined for a URL elsewhere, which
   * is then fetched without any credential (signed storage URLs), so a key never leaves its upstream.
   */
  sameOrigin(url: URL): Promise<UpstreamResponse> | undefined;
}

/**
 * Follows the redirects of a file download (video hosts answer with one to storage, as `curl -L` expects), at most
 * three; 304 is an answer, not a redirect. More hops, or one without a location, is a 502.
 */
export async function followDownloadRedirects(response: UpstreamResponse, options: DownloadRedirectOptions): Promise<UpstreamResponse> {
  let current = response;
  let url = options.url;
  for (let hop = 0; hop < MAX_REDIRECTS && isRedirect(current.status); hop += 1) {
    const location = headerText(current.headers.location);
    if (!location) break;
    current.body.destroy();
    url = new URL(location, url);
    const own = options.sameOrigin(url);
    if (own) {
      current = await own;
    } else {
      const { ctx } = options;
      const next = await ctx.upstream.send({ url: url.toString(), method: 'GET', headers: options.headers, signal: abortSourceOf(ctx), timeouts: options.timeouts });
      current = { status: next.status, headers: next.headers, body: next.body };
    }
  }
  if (isRedirect(current.status)) {
    current.body.destroy();
    throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream download redirected too often or without a location');
  }
  return current;
}

/** A successful download as the client's answer: the bytes piped as they arrive, never held in memory. */
export function downloadResultOf(response: UpstreamResponse): CustomResult {
  const headers: Record<string, string> = {};
  for (const name of RESPONSE_HEADERS) {
    const value = headerText(response.headers[name]);
    if (value !== undefined) headers[name] = value;
  }
  return { status: response.status, stream: response.body, headers };
}

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
