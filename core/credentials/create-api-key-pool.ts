import type { PluginContext } from '../hooks/plugin-api';
import { createCredentialPool, type CredentialPool } from './create-credential-pool';

/**
 * The credential pool of a platform whose credentials are plain API keys, as the plugins that rotate keys set it
 * up: loaded from the store, shown and reset under `/admin/credentials/{key}`, flushed and stopped at shutdown.
 */
export async function createApiKeyPool(
  context: Pick<PluginContext<unknown>, 'key' | 'store' | 'log' | 'admin' | 'onClose'>,
  secrets: readonly string[],
): Promise<CredentialPool<string>> {
  const pool = createCredentialPool({ platform: context.key, store: context.store, log: context.log, credentials: secrets.map((secret) => ({ kind: 'apiKey', secret, key: secret })) });
  await pool.load();
  context.admin.view('credentials', () => pool.view());
  context.admin.reset('credentials', (id) => pool.reset(id));
  context.onClose?.(() => pool.close());
  return pool;
}
