import { STATUS_CODES } from 'node:http';
import type { UpstreamFailure } from '@gateway/core';

/** The compiled pattern lists of one pool (see compile-patterns.ts). */
export interface TokenPatterns {
  limit: readonly RegExp[];
  anomaly: readonly RegExp[];
}

/** What an upstream error says about the token that made the call; undefined means "not the token's fault". */
export type TokenVerdict = 'limit' | 'anomaly' | undefined;

/**
 * Spec 3 and 7: the error text (status line, then the body) is matched against the anomaly list, then the limit
 * list. Anomaly goes first because it is the stronger statement: a banned account that also says "rate limit"
 * is still banned, and a limit-mark would only put it back into service after the cooldown.
 */
export function classifyTokenFailure(failure: Pick<UpstreamFailure, 'status' | 'text'>, patterns: TokenPatterns): TokenVerdict {
  const text = `HTTP ${failure.status} ${STATUS_CODES[failure.status] ?? ''}\n${failure.text}`;
  if (patterns.anomaly.some((pattern) => pattern.test(text))) return 'anomaly';
  if (patterns.limit.some((pattern) => pattern.test(text))) return 'limit';
  return undefined;
}
