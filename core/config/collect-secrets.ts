import { MIN_MASKED_SECRET_LENGTH } from '../errors/mask-secret';
import type { GatewayConfig } from './config-types';
import { isSensitiveKey } from '../logging/create-redact-format';

const SECRET_KEYS = /^(apiKey|sessionKey|token|accessToken|refreshToken|secret|password|key)$/i;

/** A config field holding a secret: core's names, or any named like a credential (a plugin's `authToken`, `clientSecret`). */
function isSecretKey(key: string): boolean {
  return SECRET_KEYS.test(key) || isSensitiveKey(key);
}

/** Every secret value in the config (licenses, admin keys, platform credentials), for the log redactor. */
export function collectSecrets(config: GatewayConfig): string[] {
  const found = new Set<string>([...config.licenses, ...config.adminKeys]);
  const visit = (value: unknown, key: string): void => {
    if (typeof value === 'string') {
      if (isSecretKey(key)) found.add(value);
      else if (/url$/i.test(key)) for (const part of urlCredentials(value)) found.add(part);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, key);
    } else if (value && typeof value === 'object') {
      for (const [childKey, child] of Object.entries(value)) visit(child, childKey);
    }
  };
  visit(config.platforms, '');
  // The masker skips shorter strings anyway; leaving them out here keeps the list it scans short.
  return [...found].filter((secret) => secret.length >= MIN_MASKED_SECRET_LENGTH);
}

/** The password of a URL's userinfo (a proxy's credentials), as written and decoded. */
function urlCredentials(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  if (!parsed.password) return [];
  try {
    return [parsed.password, decodeURIComponent(parsed.password)];
  } catch {
    return [parsed.password];
  }
}
