import { GatewayError } from '@gateway/core';

/** Round-robin over the configured API keys, so call frequency spreads evenly. */
export function createKeyRotation(keys: readonly string[], platform: string) {
  let next = 0;
  return {
    nextKey(): string {
      if (keys.length === 0) throw new GatewayError('GW_NO_CREDENTIAL', `platform "${platform}" has no API key configured`);
      const key = keys[next % keys.length];
      next = (next + 1) % keys.length;
      return key;
    },
  };
}
