import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Logger } from '../logging';
import type { Store } from '../store/store';
import type { UpstreamClient, UpstreamTimeouts } from '../upstream/upstream-client';
import type { UnifiedRequest, WireFormat } from '../unified/unified-request';
import type { UnifiedResponse } from '../unified/unified-response';
import type { UnifiedStreamEvent } from '../unified/unified-stream-event';
import type { GatewayError } from '../errors/gateway-error';
import type { WireEvent } from '../sse/wire-event';
import type { SecretMasker } from '../errors/mask-gateway-error';
import type { EndpointId } from './endpoints';
import type { PlatformAdmin } from '../plugins/admin-registry';
import type { GatewayHooks } from './gateway-hooks';

/** Bumped whenever a hook's signature or these types change in a way plugins can see. */
export const PLUGIN_API_VERSION = '1.0.0';

/** Who is calling: the license that opened the request (never forwarded upstream). */
export interface Principal {
  kind: 'license' | 'admin';
  /**
   * A stable id of the license, safe for logs: a digest, as credential ids are (a mask shows too little of a short
   * license to tell two apart, and the id scopes per-client state such as Gemini's signature memo).
   */
  id: string;
}

/** What the auth hook sees: every place a credential can hide. */
export interface AuthInput {
  path: string;
  headers: IncomingHttpHeaders;
  query: Record<string, string>;
}

/** Per-request facts and services. Created by core for every request. */
export interface RequestContext {
  readonly requestId: string;
  /** Platform key (first path segment). */
  readonly platform: string;
  readonly endpoint: EndpointId;
  /** The client's wire format for generation endpoints. */
  readonly clientFormat?: WireFormat;
  readonly headers: IncomingHttpHeaders;
  readonly query: Record<string, string>;
  /** Path parameters (`model`, `taskId`). */
  readonly params: Record<string, string>;
  /**
   * Aborts when the client disconnects; pass it to every upstream call of your own (`sendUpstreamRequest` and core's
   * calls watch the connection themselves). Core makes it on first read, as a getter: a copy made with `{ ...ctx }`
   * must set its own `signal`.
   */
  readonly signal: AbortSignal;
  /** The request's logger (its lines carry requestId and platform). A getter too: a `{ ...ctx }` copy sets `log: ctx.log`. */
  readonly log: Logger;
  readonly store: Store;
  readonly upstream: UpstreamClient;
  principal?: Principal;
  model?: string;
  stream: boolean;
  /** Time to upstream response headers, set by whoever calls the upstream; logged. */
  upstreamLatencyMs?: number;
  /**
   * Why an answer already under way ended with its format's error event instead of its end (the error code, as
   * `gw_upstream_timeout`), set where the event is written; the access line logs it and counts the answer unfinished.
   */
  failedMidway?: string;
  /** Scratch space for plugins, per request (e.g. the credential chosen). */
  readonly state: Map<string, unknown>;
}

export interface RouteQuery {
  endpoint: EndpointId;
  model?: string;
  stream: boolean;
}

/**
 * How a platform serves an endpoint:
 * - `passthrough`: the platform's native format; request and response bytes are forwarded, only credentials change.
 * - `translate`: core decodes the client format to the unified model and the platform speaks `upstream` format.
 * - `custom`: the plugin answers itself (models lists, images, videos, search).
 */
export type RouteDecision =
  | { mode: 'passthrough'; format: WireFormat | 'other' }
  | { mode: 'translate'; upstream: WireFormat }
  | { mode: 'custom'; handle: CustomHandler };

/** A parsed request body of a custom endpoint: JSON fields plus any uploaded files (multipart). */
export interface CustomRequest {
  body: Record<string, unknown>;
  files: UploadedFile[];
}

export interface UploadedFile {
  field: string;
  filename: string;
  mediaType: string;
  data: Buffer;
}

/** What a custom handler answers: a JSON body, or a byte stream with its headers. */
export type CustomResult =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | {
      status: number;
      stream: Readable;
      headers: Record<string, string>;
      /** The credentials the upstream call sent (`UpstreamResponse.credentials`): masked wherever the bytes echo them. */
      credentials?: readonly string[];
      /**
       * An SSE stream's own error event(s), sent (at an event boundary) when the stream breaks or stalls after it
       * started; without it the connection is dropped, as for a byte stream (a video) that cannot say so.
       */
      errorEvents?(error: GatewayError): WireEvent[];
    };

export type CustomHandler = (request: CustomRequest, ctx: RequestContext) => Promise<CustomResult>;

/**
 * The request that will go upstream. Core sends `body` when set, else `JSON.stringify(json)`, else the encoding of
 * `unified`. On passthrough `body` holds the client's raw bytes and `json` their parse, to read: a tap that changes the
 * body sets `body: undefined` and a new `json`. On translation `requestTransform` taps get `unified` (the decoded
 * request) with neither `body` nor `json`: core encodes `unified` to the upstream format after them, unless a tap sets
 * `json` or `body` itself (token-pool's to-pool-request.ts does). `upstreamCall` taps get the request reduced
 * to its bytes (`body` set, `json` and `unified` cleared), so nothing holds the parsed body while the upstream answers.
 * Once the `upstreamCall` taps have settled, core releases a body of 64 KB or more (it then reads as empty; see
 * core/upstream/release-body.ts): a tap must not keep the bytes for later.
 */
export interface UpstreamRequest {
  mode: 'passthrough' | 'translate';
  /** Wire format of the upstream request and response. */
  format: WireFormat | 'other';
  method: string;
  /** Path and query relative to the platform's baseUrl, e.g. `/v1/messages?beta=true`. */
  path: string;
  /** Client headers that may go upstream (credentials and hop-by-hop headers already removed). */
  headers: Record<string, string>;
  body?: Buffer;
  json?: Record<string, unknown>;
  unified?: UnifiedRequest;
  stream: boolean;
}

/** An upstream's answer as it arrived; the body is unread. */
export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
  /** The credentials the call sent (sendUpstreamRequest notes them), which a body relayed unchanged must not echo. */
  credentials?: readonly string[];
}

/** A failed upstream answer, for `errorClassify`. `text` is the body as read (bounded). */
export interface UpstreamFailure {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, when it was JSON. */
  json?: unknown;
}

/**
 * A per-response transformer of unified output, assembled once per response by `streamTransform`.
 * Streams call `event` per event and `end` once; non-streaming answers call `response` once.
 */
export interface StreamStage {
  name: string;
  event?(event: UnifiedStreamEvent): UnifiedStreamEvent[];
  end?(): UnifiedStreamEvent[];
  response?(response: UnifiedResponse): UnifiedResponse | Promise<UnifiedResponse>;
}

/** Defaults every platform entry gets (DECISIONS §3), resolved before the plugin sees its options. */
export interface PlatformBaseOptions {
  plugin: string;
  baseUrl: string;
  timeouts: UpstreamTimeouts;
  /** Extra model ids listed by GET /v1/models. */
  models?: string[];
}

/** What `apply` receives besides the hooks. */
export interface PluginContext<Options> {
  /** The platform key (path segment) this instance serves; tap only `.for(key)`. */
  key: string;
  options: Options & PlatformBaseOptions;
  log: Logger;
  store: Store;
  upstream: UpstreamClient;
  /** Gateway-wide settings plugins may need. */
  gateway: GatewaySettings;
  /** Publishes this platform's admin views (`/admin/credentials/{key}`, `/admin/pools/{key}`). */
  admin: PlatformAdmin;
  /**
   * Registers cleanup for this mount, run when its gateway closes (once its open requests are done, before the store
   * closes), e.g. to stop background tasks. Unlike `GatewayPlugin.close`, it is per gateway and per platform key.
   */
  onClose?(cleanup: GatewayCleanup): void;
}

/** What a closing gateway tells its cleanups. */
export interface ShutdownContext {
  /** Settles when the shutdown's grace period is over (its time ran out, or a second signal): work still running stops then. */
  graceOver: Promise<void>;
}

export type GatewayCleanup = (shutdown: ShutdownContext) => void | Promise<void>;

export interface GatewaySettings {
  media: { maxBytes: number; timeoutMs: number; allowPrivateAddresses: boolean };
  limits: { jsonBodyBytes: number; fileBytes: number };
  /** Absolute base URL clients reach the gateway at, when known (for `url` answers). */
  publicBaseUrl?: string;
  /**
   * Masks every secret the gateway knows (config credentials, licenses, well-known key shapes) in a text: for error
   * text a plugin keeps to answer later, which the error middleware's last check never sees (an async task's error).
   */
  maskSecrets: SecretMasker;
}

export interface GatewayPlugin<Options = Record<string, unknown>> {
  name: string;
  /** Semver range of PLUGIN_API_VERSION this plugin was written for, e.g. `^1`. */
  apiVersion: string;
  /** JSON schema of the plugin-specific options (validated by core before `apply`). */
  optionsSchema?: object;
  apply(hooks: GatewayHooks, context: PluginContext<Options>): void | Promise<void>;
  /** Called on shutdown. */
  close?(): void | Promise<void>;
}

