import { createGateway, parseConfig, type Gateway, type GatewayConfigFile } from '@gateway/core';

export const TEST_LICENSE = 'lic-test-0123456789';
export const TEST_ADMIN_KEY = 'adm-test-0123456789';

export interface RunningGateway {
  url: string;
  gateway: Gateway;
  close(): Promise<void>;
}

/** Starts the real gateway on a free loopback port with a memory store and logging off. */
export async function startGateway(platforms: GatewayConfigFile['platforms'], extra: Partial<GatewayConfigFile> = {}): Promise<RunningGateway> {
  const { config } = parseConfig(
    {
      licenses: [TEST_LICENSE],
      adminKeys: [TEST_ADMIN_KEY],
      store: { driver: 'memory' },
      logging: { level: 'silent' },
      ...extra,
      platforms,
    },
    `${process.cwd()}/test-config`,
    {},
  );
  const gateway = await createGateway(config);
  const { url } = await gateway.listen(0, '127.0.0.1');
  return { url, gateway, close: () => gateway.close(500) };
}
