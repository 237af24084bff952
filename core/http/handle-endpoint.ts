import { withExactToolNumbers } from '../text/exact-json-numbers';
import type { Request, Response } from 'express';
import { CODECS } from '../codecs';
import { GatewayError, toGatewayError } from '../errors/gateway-error';
import { GEMINI_METHODS, isModelsEndpoint, type EndpointId, type EndpointSpec } from '../hooks/endpoints';
import type { RequestContext } from '../hooks/plugin-api';
import { modelDialect } from '../models-api/model-dialect';
import { describeRequest } from '../pipeline/describe-request';
import { forwardableRequestHeaders } from '../pipeline/forward-headers';
import { passthroughValidator } from '../pipeline/passthrough-schemas';
import { runCustom } from '../pipeline/run-custom';
import { runPassthrough } from '../pipeline/run-passthrough';
import { runTranslation } from '../pipeline/run-translation';
import type { StreamFraming } from '../sse/wire-event';
import { releaseBody } from '../upstream/release-body';
import type { GatewayRuntime } from './gateway-runtime';
import { createRequestContext } from './request-context';

/**
 * The one handler behind every `/{platform}/…` endpoint: platform → auth → body → route decision → passthrough,
 * translation or the plugin's own handler. Errors are thrown and rendered by the error middleware.
 */
export function createEndpointHandler(spec: EndpointSpec, runtime: GatewayRuntime) {
  const { hooks, bodies } = runtime;
  return async (req: Request, res: Response): Promise<void> => {
    const platformKey = String(req.params.platform);
    const endpointId = spec.path.includes(':modelAction') ? geminiEndpoint(req) : spec.id;
    // `/v1/models` serves three SDKs; each gets its errors in the shape it parses, like its list.
    const family = isModelsEndpoint(endpointId) ? modelDialect(endpointId, req.headers, req.query as Record<string, string>) : spec.family;
    res.locals.family = family;
    if (!runtime.platforms.has(platformKey)) {
      throw new GatewayError('GW_PLATFORM_NOT_FOUND', `no platform "${platformKey}" is configured on this gateway`);
    }
    const params = pathParams(req);
    const ctx = createRequestContext(req, res, runtime, { platform: platformKey, endpoint: endpointId, clientFormat: spec.format, params });
    res.locals.ctx = ctx;

    ctx.principal = await hooks.auth.promise({ path: req.path, headers: req.headers, query: ctx.query }, ctx);
    if (!ctx.principal) throw new GatewayError('GW_UNAUTHORIZED', 'missing or unknown license: send it as Authorization: Bearer <license>');
    // An auth tap's answer that is no principal (a plugin's `'yes'`) is its fault, not an accepted client.
    if (typeof ctx.principal !== 'object' || typeof ctx.principal.id !== 'string') {
      throw toGatewayError(new TypeError('an auth tap answered something that is not a principal'));
    }

    if (spec.body === 'multipart-or-json') {
      const form = await bodies.form(req, res);
      Object.assign(ctx, describeRequest(endpointId, form.body, params));
      const decision = route(runtime, ctx);
      if (decision.mode !== 'custom') throw new GatewayError('GW_ROUTE_NOT_FOUND', `${endpointId} is not served by platform "${platformKey}"`);
      await runCustom(decision.handle, form, ctx, res);
      return;
    }

    const body = spec.body === 'json' ? await bodies.json(req, res) : undefined;
    Object.assign(ctx, describeRequest(endpointId, body?.json, params));
    const decision = route(runtime, ctx);
    if (decision.mode === 'custom') {
      await runCustom(decision.handle, { body: body?.json ?? {}, files: [] }, ctx, res);
      return;
    }
    if (decision.mode === 'passthrough') {
      if (body && decision.format !== 'other') passthroughValidator(decision.format, endpointId)(body.json);
      const input = { format: decision.format, method: req.method, path: upstreamPath(req), headers: forwardableRequestHeaders(req.headers), body: body?.raw, json: body?.json };
      // Returned, not awaited (here and below): a suspended frame keeps its variables, and `body` would hold the
      // parsed request until the answer has been written.
      return runPassthrough(hooks, input, ctx, res);
    }
    if (!spec.format || !body) throw new GatewayError('GW_ROUTE_NOT_FOUND', `${endpointId} cannot be translated`);
    // Tool arguments a translation writes again keep their numbers' digits (read from the bytes only when one needs it).
    const json = withExactToolNumbers(body.json, body.raw);
    // A translation never sends the client's bytes: a large body is released at once (see releaseBody).
    releaseBody(body.raw);
    const unified = CODECS[spec.format].decodeRequest(json, { model: params.model, stream: ctx.stream });
    ctx.stream = unified.stream;
    const framing: StreamFraming = spec.format === 'gemini' && ctx.query.alt !== 'sse' ? 'json-array' : 'sse';
    const translation = { clientFormat: spec.format, upstreamFormat: decision.upstream, unified, framing, maskSecrets: runtime.maskSecrets, media: runtime.settings.media };
    return runTranslation(hooks, translation, ctx, res);
  };
}

function route(runtime: GatewayRuntime, ctx: RequestContext) {
  const decision = runtime.hooks.route.get(ctx.platform)?.call({ endpoint: ctx.endpoint, model: ctx.model, stream: ctx.stream }, ctx);
  if (!decision) {
    throw new GatewayError('GW_ROUTE_NOT_FOUND', `platform "${ctx.platform}" does not serve ${ctx.endpoint.replace('gemini.', '')}`);
  }
  return decision;
}

const SLASH = 0x2f;

/** `http://x@host/openai/v1/…?q` → `/openai/v1/…?q` (URL.parse is not in every Node 20). */
function pathOfAbsoluteTarget(target: string): string {
  try {
    const absolute = new URL(target);
    return absolute.pathname + absolute.search;
  } catch {
    throw new GatewayError('GW_INVALID_REQUEST', 'the request target is neither a path nor an absolute URL');
  }
}

/** `gemini-2.5-flash:streamGenerateContent` → the endpoint id; an unknown method is a 404. */
function geminiEndpoint(req: Request): EndpointId {
  const action = wildcard(req.params.modelAction);
  const method = action.slice(action.lastIndexOf(':') + 1);
  const endpoint = action.includes(':') ? GEMINI_METHODS[method] : undefined;
  if (!endpoint) throw new GatewayError('GW_ROUTE_NOT_FOUND', `unknown model method "${method}"; expected generateContent, streamGenerateContent or countTokens`);
  return endpoint;
}

/** A wildcard parameter (`*model`, `*modelAction`) is its decoded segments: joined, `org/model` keeps its slash. */
function wildcard(value: unknown): string {
  return Array.isArray(value) ? value.join('/') : String(value);
}

function pathParams(req: Request): Record<string, string> {
  const params: Record<string, string> = {};
  if (req.params.taskId) params.taskId = String(req.params.taskId);
  const model: unknown = req.params.model;
  if (Array.isArray(model)) params.model = wildcard(model);
  if (req.params.modelAction) {
    const action = wildcard(req.params.modelAction);
    const tuned = req.path.includes('/tunedModels/') ? 'tunedModels/' : '';
    params.model = tuned + action.slice(0, action.lastIndexOf(':')).replace(/^models\//, '');
  }
  return params;
}

/**
 * The client's path and query below the platform segment, without the license (`key=`) query parameter. It is
 * appended to the platform's base URL, so it must start with `/` whatever the client sent: an absolute-form target
 * (`POST http://x@evil.example/openai/v1/…`, RFC 9112 §3.2.2) is reduced to its path first (sliced as it came, its
 * `@evil.example/…` made `evil.example` the upstream host, and the operator's key went there), and the segment is
 * cut at its slash, not by its decoded length (`/%6Fpenai/…`).
 */
function upstreamPath(req: Request): string {
  let target = req.originalUrl;
  if (target.charCodeAt(0) !== SLASH) {
    target = pathOfAbsoluteTarget(target);
  }
  const segmentEnd = target.indexOf('/', 1);
  const url = segmentEnd < 0 ? '/' : target.slice(segmentEnd);
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const query = new URLSearchParams(url.slice(queryStart + 1));
  query.delete('key');
  const rest = query.toString();
  return rest ? `${url.slice(0, queryStart)}?${rest}` : url.slice(0, queryStart);
}
