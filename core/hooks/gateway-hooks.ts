import { AsyncSeriesBailHook, AsyncSeriesWaterfallHook, HookMap, SyncBailHook, SyncWaterfallHook } from 'tapable';
import type { GatewayError } from '../errors/gateway-error';
import type {
  AuthInput, Principal, RequestContext, RouteDecision, RouteQuery, StreamStage, UpstreamFailure,
  UpstreamRequest, UpstreamResponse,
} from './plugin-api';

/**
 * The gateway's extension points. Per-platform hooks are HookMaps keyed by the platform key:
 * plugins call `.for(key)`, core calls `.get(key)`. Tap only at startup. Documented in core/hooks/README.md.
 */
export function createGatewayHooks() {
  return Object.freeze({
    /** First tap that recognises the caller returns a Principal; none means 401. Runs for every request. */
    auth: new AsyncSeriesBailHook<[AuthInput, RequestContext], Principal | undefined>(['input', 'ctx']),
    /** How the platform serves an endpoint; undefined means "this platform does not serve that endpoint". */
    route: new HookMap(() => new SyncBailHook<[RouteQuery, RequestContext], RouteDecision | undefined>(['query', 'ctx'])),
    /** Shapes the upstream request (path, body, model quirks); each tap returns the request. */
    requestTransform: new HookMap(
      () => new AsyncSeriesWaterfallHook<[UpstreamRequest, RequestContext]>(['request', 'ctx']),
    ),
    /** Sends the request, reduced to its bytes, upstream (credentials, rotation, retries); the first tap to answer wins. */
    upstreamCall: new HookMap(
      () => new AsyncSeriesBailHook<[UpstreamRequest, RequestContext], UpstreamResponse | undefined>(['request', 'ctx']),
    ),
    /** Called once per response to assemble stages; chunks never pass through a hook. */
    streamTransform: new HookMap(() => new SyncWaterfallHook<[StreamStage[], RequestContext]>(['stages', 'ctx'])),
    /** Turns a failed upstream answer into a GatewayError; undefined falls back to core's generic mapping. */
    errorClassify: new HookMap(
      () => new SyncBailHook<[UpstreamFailure, RequestContext], GatewayError | undefined>(['failure', 'ctx']),
    ),
  });
}

export type GatewayHooks = ReturnType<typeof createGatewayHooks>;
