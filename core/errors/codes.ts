/**
 * Every error the gateway answers with. Codecs render these into each client family's shape
 * (core/codecs/<format>/encode-error.ts); nothing else builds error bodies.
 */
export const ERROR_CODES = {
  /** The body failed schema validation; the message names the field. */
  GW_INVALID_REQUEST: { status: 400 },
  /** The body is not valid JSON. */
  GW_INVALID_JSON: { status: 400 },
  /** No license, or an unknown one. */
  GW_UNAUTHORIZED: { status: 401 },
  /** Authenticated, but not allowed (e.g. a premium-only model with no premium credential usable). */
  GW_FORBIDDEN: { status: 403 },
  /** The first path segment names no configured platform. */
  GW_PLATFORM_NOT_FOUND: { status: 404 },
  /** No such route, or the platform does not serve this endpoint. */
  GW_ROUTE_NOT_FOUND: { status: 404 },
  /** A task or object id that does not exist. */
  GW_NOT_FOUND: { status: 404 },
  /** The method is not allowed on this path. */
  GW_METHOD_NOT_ALLOWED: { status: 405 },
  /** Body or uploaded file larger than the configured limit. */
  GW_BODY_TOO_LARGE: { status: 413 },
  /** Content-Type of the request is not one the endpoint takes. */
  GW_UNSUPPORTED_CONTENT_TYPE: { status: 415 },
  /** A media part's format is not accepted by the platform. */
  GW_MEDIA_NOT_ALLOWED: { status: 415 },
  /** The client went away before the answer was complete (nginx's 499); only logged, never sent. */
  GW_CLIENT_CLOSED: { status: 499 },
  /** The upstream rate-limited us and no other credential could serve. */
  GW_RATE_LIMITED: { status: 429 },
  /** Our own bug. */
  GW_INTERNAL: { status: 500 },
  /** The upstream answered an error; status and message are the upstream's (secrets masked). */
  GW_UPSTREAM_ERROR: { status: 502 },
  /** The upstream could not be reached (DNS, refused, reset). */
  GW_UPSTREAM_UNREACHABLE: { status: 502 },
  /** The upstream answered something we could not parse. */
  GW_UPSTREAM_BAD_RESPONSE: { status: 502 },
  /** No credential of the platform is healthy. */
  GW_NO_CREDENTIAL: { status: 503 },
  /** The upstream overloaded (Anthropic 529, Gemini 503). */
  GW_UPSTREAM_OVERLOADED: { status: 503 },
  /** Connect, total or idle timeout towards the upstream. */
  GW_UPSTREAM_TIMEOUT: { status: 504 },
  /** The gateway is stopping: a call still open when its shutdown grace period ran out was cut. */
  GW_SHUTTING_DOWN: { status: 503 },
} as const satisfies Record<string, { status: number }>;

export type ErrorCode = keyof typeof ERROR_CODES;
