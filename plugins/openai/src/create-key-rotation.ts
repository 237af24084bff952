import { GatewayError, credentialId } from '@gateway/core';

/** A configured API key and its stable, non-secret id (`credentialId`), which is what the store may keep. */
export interface ApiKey {
  id: string;
  secret: string;
}

export interface KeyRotation {
  /** The next key of the rotation; no key configured is a GW_NO_CREDENTIAL. */
  next(): ApiKey;
  /** The next key's secret. */
  nextKey(): string;
  /** The configured key with that credential id; undefined when none has it (any more). */
  byId(id: string): ApiKey | undefined;
  /** Every configured key, in config order. */
  readonly all: readonly ApiKey[];
}

/** Round-robin over the configured API keys, so call frequency spreads evenly. */
export function createKeyRotation(secrets: readonly string[], platform: string): KeyRotation {
  const all: readonly ApiKey[] = secrets.map((secret) => ({ id: credentialId(secret), secret }));
  let position = 0;
  const next = (): ApiKey => {
    if (all.length === 0) throw new GatewayError('GW_NO_CREDENTIAL', `platform "${platform}" has no API key configured`);
    const key = all[position % all.length];
    position = (position + 1) % all.length;
    return key;
  };
  return {
    next,
    nextKey: () => next().secret,
    byId: (id) => all.find((key) => key.id === id),
    all,
  };
}
