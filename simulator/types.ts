import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClaudeAiControl } from './anthropic-oauth';

export type Vendor = 'anthropic' | 'gemini' | 'openai' | 'claude-ai';

export interface SimulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** How many pieces a streamed reply is cut into (default 3). `[sim:chunks=N]` overrides it per request. */
  chunks?: number;
  /** Pause before each streamed content chunk (default 0). `[sim:delay=MS]` overrides it per request. */
  chunkDelayMs?: number;
  /** Pause before the response headers (default 0). */
  latencyMs?: number;
  /** Lifetime of the OAuth access tokens the claude.ai flow issues (default 3600). */
  oauthTokenTtlSeconds?: number;
}

export interface RecordedRequest {
  vendor: Vendor;
  method: string;
  /** The path below the vendor prefix, without the query: `/v1/messages`, not `/anthropic/v1/messages?beta=true`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  body: unknown;
  rawBody: Buffer;
  /** True once the client closed the connection before the response finished. */
  aborted: boolean;
}

export interface Simulator {
  /** e.g. http://127.0.0.1:43210 */
  url: string;
  anthropicUrl: string;
  geminiUrl: string;
  openaiUrl: string;
  /** claude.ai's session-key → OAuth flow and the OAuth token endpoint (`${claudeAiUrl}/v1/oauth/token`). */
  claudeAiUrl: string;
  claudeAi: ClaudeAiControl;
  /** The most recent requests, oldest first (capped). */
  requests: RecordedRequest[];
  /** Forgets the recorded requests and restarts the id counters. */
  reset(): void;
  /** Stops listening and drops every open connection, hung ones included. */
  close(): Promise<void>;
  on(event: 'aborted', fn: (r: RecordedRequest) => void): void;
}

/** Settings a vendor handler needs, resolved from SimulatorOptions. */
export interface SimulatorSettings {
  chunks: number;
  chunkDelayMs: number;
}

/** One request as a vendor handler sees it. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  /** The body as received (multipart forms are parsed from it). */
  rawBody: Buffer;
  settings: SimulatorSettings;
  /** Per-simulator memory of stateful fakes (video jobs); emptied by reset(). */
  state: Map<string, unknown>;
  /** Aborts when the connection closes (client disconnect or simulator close). */
  signal: AbortSignal;
  /** A per-simulator counter: deterministic ids. */
  nextId(): number;
}

export type VendorHandler = (exchange: Exchange) => Promise<void>;
