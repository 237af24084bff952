import { createHash } from 'node:crypto';
import { callIdKey, createCallMemo, isExactNumber, parseToolJson, type Logger, type RequestContext, type Store } from '@gateway/core';

/** How long a call's thought signature is kept for the next turn of its tool loop. */
export const SIGNATURE_TTL_MS = 24 * 60 * 60 * 1000;

/** A function call as a client sends it back: its id in that client's shape, its name and its arguments (JSON). */
export interface SignedCall {
  id: string;
  name: string;
  arguments: string;
}

/** What is kept: the signature, and the fingerprint of the call it was made for. */
interface KeptSignature {
  signature: string;
  call: string;
}

export interface SignatureMemo {
  /** Keeps the signature Gemini sent with `call`, for requests of `scope` (the client's principal). */
  save(call: SignedCall, signature: string, scope: string): Promise<void>;
  /** The kept signatures of those of `calls` that are the very calls they were made for, by id. Never throws. */
  load(calls: readonly SignedCall[], scope: string): Promise<Map<string, string>>;
}

/**
 * Gemini's thought signatures of function calls, in store namespace `gemini-signatures:<platform>`, for clients
 * whose format has no place for them. The key is the client's principal and the call's id as every client format
 * gives it back (callIdKey); a signature is handed back only for the call it was made for (same name, same
 * arguments, whatever their key order or spacing): ids the gateway makes up are short, so two conversations can
 * share one, and another conversation's signature must never reach Gemini with this one.
 */
export function createSignatureMemo(store: Store, platform: string, log: Logger, ttlMs = SIGNATURE_TTL_MS): SignatureMemo {
  const memo = createCallMemo(store, `gemini-signatures:${platform}`, log, { ttlMs, what: 'thought signatures', isValid: isKeptSignature });
  const keyOf = (call: SignedCall, scope: string): string => `${scope}:${callIdKey(call.id)}`;
  return {
    save: (call, signature, scope) => memo.save(keyOf(call, scope), { signature, call: fingerprint(call) }),
    async load(calls, scope) {
      const keys = calls.map((call) => keyOf(call, scope));
      const kept = await memo.load(keys);
      const found = new Map<string, string>();
      calls.forEach((call, i) => {
        const entry = kept.get(keys[i]);
        if (entry && entry.call === fingerprint(call)) found.set(call.id, entry.signature);
      });
      return found;
    },
  };
}

/** Whose signatures a request may be given back: its principal's (a license's masked id). */
export function signatureScope(ctx: Pick<RequestContext, 'principal'>): string {
  return ctx.principal?.id ?? '';
}

/** The call's name and its arguments with keys sorted and no spacing, hashed: what identifies the call. */
function fingerprint(call: SignedCall): string {
  let args: string;
  try {
    // Read exactly: two calls whose numbers differ past a double's precision are two calls.
    args = canonicalJson(parseToolJson(call.arguments === '' ? '{}' : call.arguments, 'whole'));
  } catch {
    args = call.arguments;
  }
  return createHash('sha256').update(call.name).update('\0').update(args).digest('base64url');
}

function canonicalJson(value: unknown): string {
  // A number kept to its digits (withExactToolNumbers) is written as them.
  if (isExactNumber(value)) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function isKeptSignature(value: unknown): value is KeptSignature {
  const entry = value as KeptSignature | null;
  return typeof entry === 'object' && entry !== null && typeof entry.signature === 'string' && entry.signature !== '' && typeof entry.call === 'string';
}
