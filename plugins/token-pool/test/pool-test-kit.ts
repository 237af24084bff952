import { Readable } from 'node:stream';
import winston from 'winston';
import { createCredentialPool, type Store, type UpstreamResponse } from '@gateway/core';
import { createMemoryStore } from '../../../core/store/memory-store';
import { createRotationSet, type RotationSet } from '../src/create-rotation-set';
import type { TokenTier } from '../src/options';

/** Shared set-up of the token-pool unit specs: a rotation set over a memory store with a hand-driven clock. */
export const silentLog = winston.createLogger({ silent: true });

export interface Kit {
  store: Store;
  clock: { now: number };
  rotation: RotationSet;
}

export type TokenSpec = string | { token: string; tier: TokenTier };

export async function makeRotation(tokens: TokenSpec[], size: number, store: Store = createMemoryStore(), clock = { now: 1_000_000 }): Promise<Kit> {
  const pool = createCredentialPool({
    platform: 'pool',
    store,
    log: silentLog,
    now: () => clock.now,
    credentials: tokens.map((spec) => {
      const { token, tier } = typeof spec === 'string' ? { token: spec, tier: 'basic' } : spec;
      return { kind: 'token', secret: token, tier, key: token };
    }),
  });
  const rotation = createRotationSet({ pool, size, log: silentLog });
  await pool.load();
  await rotation.reconcile();
  return { store, clock, rotation };
}

/** Secrets of the rotation set's members, in config order. */
export function members(rotation: RotationSet): string[] {
  return rotation.pool.entries.filter((entry) => rotation.isMember(entry.id)).map((entry) => entry.secret);
}

export function idOf(rotation: RotationSet, token: string): string {
  const entry = rotation.pool.entries.find((candidate) => candidate.secret === token);
  if (!entry) throw new Error(`no token ${token}`);
  return entry.id;
}

export function upstreamAnswer(status: number, body: unknown, headers: Record<string, string> = {}): UpstreamResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: Readable.from([Buffer.from(text)]) };
}

/** The error bodies the OpenAI API (and the simulator) answers for a token's account. */
export const OPENAI_ERRORS = {
  rateLimit: {
    error: {
      message: 'Rate limit reached for requests per min (RPM) on gpt-4.1 in organization org-x: Limit 3, Used 3, Requested 1. Please try again in 20s.',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    },
  },
  quota: {
    error: {
      message: 'You exceeded your current quota, please check your plan and billing details.',
      type: 'insufficient_quota',
      param: null,
      code: 'insufficient_quota',
    },
  },
  suspended: { error: { message: 'Your account has been suspended', type: 'invalid_request_error', param: null, code: 'account_deactivated' } },
  badRequest: {
    error: {
      message: "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 1 instead.",
      type: 'invalid_request_error',
      param: 'max_output_tokens',
      code: 'integer_below_min_value',
    },
  },
} as const;
