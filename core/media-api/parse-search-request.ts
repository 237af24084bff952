import { GatewayError } from '../errors/gateway-error';
import { compileValidator } from '../validation/compile-validator';

const STRINGS = { type: 'array', items: { type: 'string' } } as const;

/**
 * Spec 4.13: the Codex CLI's standalone web search. Only the fields the gateway reads are checked; other fields and
 * other command kinds are accepted (the alpha interface grows), and `parseSearchRequest` decides what is served.
 */
export const searchRequestSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    model: { type: 'string', minLength: 1 },
    input: { anyOf: [{ type: 'string' }, { type: 'array' }] },
    commands: {
      type: 'object',
      properties: {
        search_query: {
          type: 'array',
          items: {
            type: 'object',
            required: ['q'],
            properties: { q: { type: 'string' }, recency: { type: 'integer', minimum: 0 }, domains: STRINGS },
          },
        },
        open: {
          type: 'array',
          items: { type: 'object', required: ['ref_id'], properties: { ref_id: { type: 'string', minLength: 1 }, lineno: { type: 'integer', minimum: 0 } } },
        },
        find: {
          type: 'array',
          items: { type: 'object', required: ['ref_id', 'pattern'], properties: { ref_id: { type: 'string', minLength: 1 }, pattern: { type: 'string', minLength: 1 } } },
        },
        response_length: { enum: ['short', 'medium', 'long'] },
      },
    },
    settings: {
      type: 'object',
      properties: {
        search_context_size: { enum: ['low', 'medium', 'high'] },
        filters: { type: 'object', properties: { allowed_domains: STRINGS, blocked_domains: STRINGS } },
        user_location: { type: 'object' },
      },
    },
    reasoning: { type: 'object' },
    max_output_tokens: { type: 'integer', minimum: 1 },
  },
} as const;

export interface SearchQuery {
  q: string;
  /** Only pages from the last this many days. */
  recency?: number;
  domains?: string[];
}

export interface SearchSettings {
  search_context_size?: 'low' | 'medium' | 'high';
  filters?: { allowed_domains?: string[]; blocked_domains?: string[] };
  user_location?: { type?: string; country?: string; region?: string; city?: string; timezone?: string };
  [setting: string]: unknown;
}

interface SearchRequestBody {
  id?: string;
  model?: string;
  input?: string | unknown[];
  commands?: {
    search_query?: SearchQuery[];
    open?: Array<{ ref_id: string; lineno?: number }>;
    find?: Array<{ ref_id: string; pattern: string }>;
    response_length?: 'short' | 'medium' | 'long';
    [kind: string]: unknown;
  };
  settings?: SearchSettings;
  reasoning?: Record<string, unknown>;
  max_output_tokens?: number;
}

const validateSearchRequest = compileValidator<SearchRequestBody>(searchRequestSchema);

/**
 * A validated search call. `open`/`find` refs are URLs or `turnNsearchM` ids of earlier results. Blank queries are
 * dropped, so all three lists are empty only for a call that asked nothing but blank queries: a no-op.
 */
export interface SearchRequest {
  id?: string;
  model?: string;
  queries: SearchQuery[];
  opens: Array<{ ref_id: string; lineno?: number }>;
  finds: Array<{ ref_id: string; pattern: string }>;
  responseLength?: 'short' | 'medium' | 'long';
  input?: string | unknown[];
  settings: SearchSettings;
  reasoning?: Record<string, unknown>;
  maxOutputTokens?: number;
}

/** Command keys that are options, not command kinds. */
const OPTION_KEYS = new Set(['response_length']);

/**
 * Validates a search call. A command kind the platform cannot serve (a non-empty list under `commands.<kind>`) is a
 * 400 naming it; with no command at all, a text `input` is searched as one query.
 */
export function parseSearchRequest(body: unknown, platform: { name: string; serves: readonly string[] }): SearchRequest {
  const request = validateSearchRequest(body);
  const commands = request.commands ?? {};
  for (const [kind, value] of Object.entries(commands)) {
    if (OPTION_KEYS.has(kind) || !Array.isArray(value) || value.length === 0 || platform.serves.includes(kind)) continue;
    throw new GatewayError(
      'GW_INVALID_REQUEST',
      `commands.${kind}: platform "${platform.name}" cannot serve "${kind}" commands (it serves ${platform.serves.join(', ')})`,
      { param: `commands.${kind}` },
    );
  }
  const given = commands.search_query ?? [];
  // A blank query asks nothing; with nothing else in the call it is a no-op (see createSearchHandler).
  let queries = given.filter((query) => query.q.trim() !== '');
  const opens = commands.open ?? [];
  const finds = commands.find ?? [];
  if (given.length === 0 && opens.length === 0 && finds.length === 0) {
    if (typeof request.input !== 'string' || request.input.trim() === '') {
      throw new GatewayError('GW_INVALID_REQUEST', 'commands.search_query: is required (a list of {q})', { param: 'commands.search_query' });
    }
    queries = [{ q: request.input.trim() }];
  }
  return {
    id: request.id,
    model: request.model,
    queries,
    opens,
    finds,
    responseLength: commands.response_length,
    input: request.input,
    settings: request.settings ?? {},
    reasoning: request.reasoning,
    maxOutputTokens: request.max_output_tokens,
  };
}
