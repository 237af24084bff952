import { maskSecret } from '../errors/mask-secret';
import type { GatewayHooks } from '../hooks/gateway-hooks';
import { Stage } from '../hooks/stages';
import { createKeyChecker } from './create-key-checker';
import { extractCredential } from './extract-credential';

/** Core's own auth tap: accepts the configured licenses. Plugins may tap earlier to accept other schemes. */
export function tapLicenseAuth(hooks: GatewayHooks, licenses: readonly string[]): void {
  const isLicense = createKeyChecker(licenses);
  hooks.auth.tapPromise({ name: 'core:license', stage: Stage.CORE_FALLBACK }, async (input) => {
    const presented = extractCredential(input);
    return presented !== undefined && isLicense(presented) ? { kind: 'license', id: maskSecret(presented) } : undefined;
  });
}
