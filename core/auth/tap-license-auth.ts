import { credentialId } from '../credentials/credential-id';
import type { GatewayHooks } from '../hooks/gateway-hooks';
import type { Principal } from '../hooks/plugin-api';
import { Stage } from '../hooks/stages';
import { createKeyChecker } from './create-key-checker';
import { extractCredential } from './extract-credential';

/**
 * Core's own auth tap: accepts the configured licenses. Plugins may tap earlier to accept other schemes.
 * A license once accepted is remembered with its principal, so a client's later requests skip the constant-time
 * check (a SHA-256 per request, ~5 µs). Only configured licenses enter the map, so it never holds more than
 * the config lists; an unknown key always takes the constant-time path.
 */
export function tapLicenseAuth(hooks: GatewayHooks, licenses: readonly string[]): void {
  const isLicense = createKeyChecker(licenses);
  const accepted = new Map<string, Principal>();
  hooks.auth.tapPromise({ name: 'core:license', stage: Stage.CORE_FALLBACK }, async (input) => {
    const presented = extractCredential(input);
    if (presented === undefined) return undefined;
    const known = accepted.get(presented);
    if (known) return known;
    if (!isLicense(presented)) return undefined;
    const principal: Principal = Object.freeze({ kind: 'license', id: credentialId(presented) });
    accepted.set(presented, principal);
    return principal;
  });
}
