import { isRecord } from './http-util';

/**
 * Scenario switches a test writes into the last user message, e.g. `hello [sim:chunks=5] [sim:thinking]`.
 * They reach the simulator through any client and through the gateway's translations, because they are plain text.
 */
export interface Directives {
  /** `[sim:error=429]`: answer this HTTP status in the vendor's error shape. */
  error?: number;
  /** `[sim:midstream-error]`: one text chunk, then the vendor's mid-stream error event. */
  midstreamError: boolean;
  /** `[sim:chunks=N]` */
  chunks?: number;
  /** `[sim:delay=MS]`: pause before each streamed chunk. */
  delayMs?: number;
  /** `[sim:tool]`: call the first declared tool. */
  tool: boolean;
  /** `[sim:thinking]`: a thinking / reasoning block first. */
  thinking: boolean;
  /** `[sim:hang]`: headers (stream) or nothing (non-stream), then never finish. */
  hang: boolean;
}

const DIRECTIVE = /\s*\[sim:([a-z-]+)(?:=([^\]\s]*))?\]\s*/g;

function nonNegativeInt(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

/** Reads the directives out of a message and returns the text without them. Unknown directives are dropped. */
export function parseDirectives(text: string): { directives: Directives; text: string } {
  const directives: Directives = { midstreamError: false, tool: false, thinking: false, hang: false };
  const clean = text.replace(DIRECTIVE, (_match, name: string, value: string | undefined) => {
    switch (name) {
      case 'error': {
        const status = nonNegativeInt(value);
        if (status !== undefined && status >= 400 && status <= 599) directives.error = status;
        break;
      }
      case 'midstream-error':
        directives.midstreamError = true;
        break;
      case 'chunks': {
        const chunks = nonNegativeInt(value);
        if (chunks !== undefined && chunks > 0) directives.chunks = chunks;
        break;
      }
      case 'delay':
        directives.delayMs = nonNegativeInt(value);
        break;
      case 'tool':
        directives.tool = true;
        break;
      case 'thinking':
        directives.thinking = true;
        break;
      case 'hang':
        directives.hang = true;
        break;
      default:
        break;
    }
    return ' ';
  });
  return { directives, text: clean.trim() };
}

/** Cuts text into `pieces` parts whose lengths differ by at most one code point; never an empty part. */
export function splitEven(text: string, pieces: number): string[] {
  const chars = Array.from(text);
  const count = Math.max(1, Math.min(Math.floor(pieces), chars.length));
  const base = Math.floor(chars.length / count);
  const extra = chars.length % count;
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < count; i += 1) {
    const size = base + (i < extra ? 1 : 0);
    out.push(chars.slice(at, at + size).join(''));
    at += size;
  }
  return out;
}

/** The simulator's token count: a quarter of the characters, rounded up, at least 1. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export type CredentialBehaviour = 'limited' | 'banned' | 'quota';

/** A credential containing `banned`, `quota` or `limited` makes the simulator refuse it that way. */
export function credentialBehaviour(credential: string | undefined): CredentialBehaviour | undefined {
  const lower = (credential ?? '').toLowerCase();
  if (lower.includes('banned')) return 'banned';
  if (lower.includes('quota')) return 'quota';
  if (lower.includes('limited')) return 'limited';
  return undefined;
}

function schemaType(schema: Record<string, unknown>): string {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  return typeof type === 'string' ? type.toLowerCase() : 'string';
}

/** Deterministic arguments for a JSON-Schema (or Gemini OpenAPI-subset) object: each required property filled. */
export function buildToolArguments(schema: unknown): Record<string, unknown> {
  if (!isRecord(schema)) return {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((n): n is string => typeof n === 'string') : [];
  const args: Record<string, unknown> = {};
  for (const name of required) {
    const property = properties[name];
    const type = isRecord(property) ? schemaType(property) : 'string';
    if (type === 'number' || type === 'integer') args[name] = 1;
    else if (type === 'boolean') args[name] = true;
    else if (type === 'array') args[name] = [];
    else if (type === 'object') args[name] = buildToolArguments(property);
    else args[name] = 'x';
  }
  return args;
}
