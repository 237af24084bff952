import { callIdKey, createCallMemo, type CallMemo, type Logger, type Store } from '@gateway/core';

/** How long a call's thought signature is kept for the next turn of its tool loop. */
export const SIGNATURE_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Gemini's thought signatures keyed by the call they came on (callIdKey: the same key whichever format the client
 * sends the call back in), in store namespace `gemini-signatures:<platform>`, for clients whose format has no
 * place for them.
 */
export function createSignatureMemo(store: Store, platform: string, log: Logger, ttlMs = SIGNATURE_TTL_MS): CallMemo<string> {
  const memo = createCallMemo(store, `gemini-signatures:${platform}`, log, { ttlMs, what: 'thought signatures', isValid: isSignature });
  return {
    save: (toolCallId, signature) => memo.save(callIdKey(toolCallId), signature),
    async load(toolCallIds) {
      const found = await memo.load(toolCallIds.map(callIdKey));
      const byClientId = new Map<string, string>();
      for (const id of toolCallIds) {
        const signature = found.get(callIdKey(id));
        if (signature !== undefined) byClientId.set(id, signature);
      }
      return byClientId;
    },
  };
}

function isSignature(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

export type SignatureMemo = CallMemo<string>;
