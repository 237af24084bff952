import { ConfigError } from '../config/load-config';
import type { GatewayHooks } from '../hooks/gateway-hooks';

const PLATFORM_HOOKS = ['route', 'requestTransform', 'upstreamCall', 'streamTransform', 'errorClassify'] as const;

/**
 * The hooks as one platform's plugin gets them: `auth` is shared (any plugin may accept a scheme of its own), and each
 * per-platform HookMap taps only `.for(key)`. Tapping another platform's key stops start-up: it changed that
 * platform's answers without a word (a plugin mounted first sent the other platform's requests with its own key).
 */
export function scopeHooks(hooks: GatewayHooks, key: string, pluginName: string): GatewayHooks {
  const scoped: Record<string, unknown> = { auth: hooks.auth };
  for (const name of PLATFORM_HOOKS) {
    const map = hooks[name];
    // Every other member reads through to the shared map (`_map`, `intercept`, `get`).
    scoped[name] = Object.create(map, {
      for: {
        value: (asked: string) => {
          if (asked !== key) throw new ConfigError(`platforms.${key} (plugin "${pluginName}"): taps hooks.${name}.for("${asked}"); a plugin taps only its own platform's key`);
          return map.for(asked);
        },
      },
    });
  }
  return Object.freeze(scoped) as GatewayHooks;
}
