import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, parseConfig } from '@gateway/core';

const PLATFORMS = { openai: { plugin: 'openai', baseUrl: 'http://127.0.0.1:9', credentials: [{ apiKey: 'env:TEST_OPENAI_KEY' }] } };

function tempDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'gw-config-'));
}

describe('loadConfig', () => {
  it('finds gateway.config.ts with cosmiconfig (plain data plus import type)', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'gateway.config.ts'),
      `import type { GatewayConfigFile } from '@gateway/core';\nconst config: GatewayConfigFile = { licenses: ['l1'], platforms: ${JSON.stringify(PLATFORMS)} };\nexport default config;\n`,
    );
    const { config } = await loadConfig({ cwd: dir, env: { TEST_OPENAI_KEY: 'sk-abc' } });
    expect(config.licenses).to.deep.equal(['l1']);
    expect(config.platforms.openai.credentials).to.deep.equal([{ apiKey: 'sk-abc' }]);
    expect(config.source).to.equal(path.join(dir, 'gateway.config.ts'));
  });

  it('loads the same shape from .json and .yaml, picked by --config or GATEWAY_CONFIG', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ platforms: PLATFORMS, server: { port: 9001 } }));
    writeFileSync(path.join(dir, 'b.yaml'), 'server:\n  port: 9002\nplatforms:\n  openai:\n    plugin: openai\n    baseUrl: http://127.0.0.1:9\n    credentials: []\n');
    expect((await loadConfig({ cwd: dir, file: 'a.json', env: {} })).config.server.port).to.equal(9001);
    expect((await loadConfig({ cwd: dir, env: { GATEWAY_CONFIG: 'b.yaml' } })).config.server.port).to.equal(9002);
  });

  it('refuses a config that is not plain data, saying so', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'gateway.config.js'), `module.exports = { platforms: ${JSON.stringify(PLATFORMS)}, onStart() {} };\n`);
    const error = await loadConfig({ cwd: dir, env: {} }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as Error).message).to.match(/^cannot read config in .*: the config must be plain data: onStart is a function \(export the object itself\)$/);
  });

  it('names the place of what is not plain data, never quoting a function (its source holds the credentials)', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'gateway.config.js'), "module.exports = function config() { return { licenses: ['lic-PRODlicense-99x1'], adminKeys: ['adm-PRODadminKEY-7f3k2'] }; };\n");
    const error = await loadConfig({ cwd: dir, env: {} }).catch((e: unknown) => e);
    expect((error as Error).message).to.match(/: the config must be plain data: the exported config is a function \(export the object itself\)$/);
    expect((error as Error).message).not.to.contain('PROD');
  });

  it('reports a config file that throws while it loads, with its message', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'gateway.config.ts'), "const port: number = Number('x');\nif (Number.isNaN(port)) throw new Error('PORT_FILE is unreadable');\nexport default {};\n");
    const error = await loadConfig({ cwd: dir, env: {} }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as Error).message).to.match(/^cannot read config in .*: .*PORT_FILE is unreadable/);
  });

  it('names a module the config imports that is not there, without Node\'s list of the loader\'s own files', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'gateway.config.ts'), "import { models } from './nope';\nexport default { models };\n");
    const error = await loadConfig({ cwd: dir, env: {} }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as Error).message).to.match(/Cannot find module '\.\/nope'/);
    expect((error as Error).message).not.to.match(/Require stack|\.mjs/);
  });

  it('says where a YAML or JSON file fails to parse without quoting its lines, which hold its credentials', async () => {
    const dir = tempDir();
    const yaml = path.join(dir, 'bad.yaml');
    writeFileSync(yaml, 'licenses:\n  - lic-1\nplatforms:\n  claude:\n    plugin: claude\n    credentials:\n      - apiKey: opaque-yaml-secret-12345678\n     bad: x\n');
    const json = path.join(dir, 'bad.json');
    writeFileSync(json, '{\n "licenses": ["lic"],\n "platforms": {"openai": {"plugin": "openai", "credentials": [{"apiKey": "opaque-json-secret-abcdefgh" }}\n}\n');
    const token = path.join(dir, 'token.json');
    writeFileSync(token, '{"licenses":["lic"],"platforms":{"openai":{"plugin":"openai","credentials":[{"apiKey":xopaque-token-secret-9}]}}}');
    for (const [file, where] of [[yaml, /bad indentation of a mapping entry \(8:6\)/], [json, /after array element in JSON at position \d+/], [token, /Unexpected token 'x'/]] as const) {
      const error = await loadConfig({ cwd: dir, file, env: {} }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message, file).to.match(where);
      expect(message, file).not.to.match(/secret|apiKey/);
    }
  });

  it('stops on a platform key written twice in a .json or .ts config (the last would replace the first without a word), naming the key and line', async () => {
    const dir = tempDir();
    const block = (key: string) => `{ "plugin": "openai", "baseUrl": "http://127.0.0.1:9", "credentials": [{ "apiKey": "${key}" }] }`;
    const json = path.join(dir, 'dup.json');
    writeFileSync(json, `{\n "licenses": ["lic"],\n "platforms": {\n  "openai": ${block('sk-secret-first-0001')},\n  "deepseek": ${block('sk-d')},\n  "openai": ${block('sk-secret-second-0002')}\n }\n}\n`);
    const ts = path.join(dir, 'gateway.config.ts');
    writeFileSync(ts, `export default {\n  licenses: ['lic'],\n  platforms: {\n    openai: ${block('sk-secret-first-0001')},\n    'openai': ${block('sk-secret-second-0002')},\n  },\n};\n`);
    for (const [file, line] of [[json, 6], [ts, 5]] as const) {
      const error = await loadConfig({ cwd: dir, file, env: {} }).catch((e: unknown) => e);
      expect(error, file).to.be.instanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message, file).to.include(`(line ${line}): the key "openai" is written twice in platforms; only the last one would count`);
      expect(message, file).not.to.include('secret');
    }
    // A getter and a setter of one name are one property.
    writeFileSync(ts, `export default { licenses: ['lic'], _s: 'memory', get store() { return { driver: this._s }; }, set store(v) {}, platforms: {} };\n`);
    const error = await loadConfig({ cwd: dir, file: ts, env: {} }).catch((e: unknown) => e);
    expect(String((error as Error)?.message)).not.to.include('written twice');
    // Keys that repeat in different objects, and an override after a spread, are fine.
    writeFileSync(ts, `const base = { openai: ${block('sk-1')} };\nexport default { licenses: ['lic'], platforms: { ...base, openai: ${block('sk-2')}, deepseek: ${block('sk-3')} } };\n`);
    expect((await loadConfig({ cwd: dir, file: ts, env: {} })).config.platforms.openai.credentials).to.deep.equal([{ apiKey: 'sk-2' }]);
  });

  it('stops on a syntax error in gateway.config.ts that TypeScript would repair (a missing comma), naming where, quoting nothing', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'gateway.config.ts'),
      "export default {\n  licenses: ['lic-opaque-secret-1']\n  platforms: { openai: { plugin: 'openai', baseUrl: 'http://127.0.0.1:9', credentials: [{ apiKey: 'opaque-ts-secret-12345678' }] } },\n};\n",
    );
    const error = await loadConfig({ cwd: dir, env: {} }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).to.match(/syntax error .*gateway\.config\.ts \(line 3, column 3\): ',' expected/);
    expect(message).not.to.match(/secret|apiKey|platforms/);
  });

  it('does not show V8\'s quoted text of a JSON.parse in a config file, even when it runs over a line break', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'secrets.json'), '{\n  "token":\n x"zq7Hk2Lm9Pw4Rt6Yx"\n}');
    writeFileSync(path.join(dir, 'gateway.config.cjs'), "module.exports = JSON.parse(require('fs').readFileSync(__dirname + '/secrets.json', 'utf8'));\n");
    const error = await loadConfig({ cwd: dir, file: path.join(dir, 'gateway.config.cjs'), env: {} }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as Error).message).to.include("Unexpected token 'x'").and.not.include('zq7Hk2');
  });

  it('is not held up by a config file that leaves a timer running', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'gateway.config.ts'), `setInterval(() => undefined, 1000);\nexport default { platforms: ${JSON.stringify(PLATFORMS)} };\n`);
    const { config } = await loadConfig({ cwd: dir, env: { TEST_OPENAI_KEY: 'sk-abc' } });
    expect(Object.keys(config.platforms)).to.deep.equal(['openai']);
  });

  it('keeps what the config file sets in the environment, as if it had run in the gateway (dotenv style)', async () => {
    const dir = tempDir();
    const platforms = { openai: { ...PLATFORMS.openai, credentials: [{ apiKey: 'env:TEST_OPENAI_KEY' }, { apiKey: 'env:TEST_DROPPED' }] } };
    writeFileSync(
      path.join(dir, 'gateway.config.ts'),
      `process.env.TEST_OPENAI_KEY ??= 'sk-from-file';\ndelete process.env.TEST_DROPPED;\nexport default { platforms: ${JSON.stringify(platforms)} };\n`,
    );
    // The file sees the environment the gateway resolves `env:` against (here the given one).
    const env = { TEST_DROPPED: 'x', GATEWAY_LICENSES: 'l1' };
    const { config, warnings } = await loadConfig({ cwd: dir, env });
    expect(config.platforms.openai.credentials).to.deep.equal([{ apiKey: 'sk-from-file' }]);
    expect(warnings).to.deep.equal(['platforms.openai.credentials[1].apiKey: environment variable TEST_DROPPED is not set']);
    expect(config.licenses).to.deep.equal(['l1']);
    expect(env, 'the caller\'s object is left as it was').to.deep.equal({ TEST_DROPPED: 'x', GATEWAY_LICENSES: 'l1' });

    const given = await loadConfig({ cwd: dir, env: { TEST_OPENAI_KEY: 'sk-given', TEST_DROPPED: 'y' } });
    expect(given.config.platforms.openai.credentials, 'a value already set wins over the file\'s ??=').to.deep.equal([{ apiKey: 'sk-given' }]);
  });

  it('lets gateway.config.ts import TypeScript modules of its own', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'upstreams.ts'), "export const openaiBase: string = 'http://127.0.0.1:9';\n");
    writeFileSync(
      path.join(dir, 'gateway.config.ts'),
      "import { openaiBase } from './upstreams';\nexport default { platforms: { openai: { plugin: 'openai', baseUrl: openaiBase, credentials: [] } } };\n",
    );
    const { config } = await loadConfig({ cwd: dir, env: {} });
    expect(config.platforms.openai.baseUrl).to.equal('http://127.0.0.1:9');
  });

  it('fails start-up on a config file that never finishes loading', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'gateway.config.ts'), 'await new Promise((resolve) => setTimeout(resolve, 600_000));\nexport default {};\n');
    const error = await loadConfig({ cwd: dir, env: {}, readTimeoutMs: 1500 }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as Error).message).to.match(/^cannot read config in .*: the config file did not finish loading within 1500 ms$/);
  });

  it('says at once when a config file ends without a value (nothing left to wait for)', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'gateway.config.ts'), 'await new Promise(() => undefined);\nexport default {};\n');
    const started = Date.now();
    const error = await loadConfig({ cwd: dir, env: {}, readTimeoutMs: 8000 }).catch((e: unknown) => e);
    expect((error as Error).message).to.match(/the config reader stopped \(exit code \d+\) before it answered/);
    expect(Date.now() - started).to.be.below(8000);
  });

  it('starts without waiting for a helper the config file left holding its output', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'gateway.config.ts'),
      `import { spawn } from 'node:child_process';\nspawn('sleep', ['20'], { detached: true, stdio: 'inherit' }).unref();\nexport default { platforms: ${JSON.stringify(PLATFORMS)} };\n`,
    );
    const { config } = await loadConfig({ cwd: dir, env: { TEST_OPENAI_KEY: 'sk-abc' } });
    expect(Object.keys(config.platforms)).to.deep.equal(['openai']);
  });

  it('fails with a clear message when no config exists', async () => {
    const error = await loadConfig({ cwd: tempDir(), env: {} }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as Error).message).to.match(/no config found/);
  });
});

describe('parseConfig', () => {
  const parse = (raw: unknown, env: NodeJS.ProcessEnv = {}) => parseConfig(raw, '/cfg/gateway.config.json', env);
  const messageOf = (raw: unknown, env: NodeJS.ProcessEnv = {}): string => {
    try {
      parse(raw, env);
    } catch (error) {
      expect(error).to.be.instanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  it('fills defaults (DECISIONS §3)', () => {
    const { config } = parse({ platforms: {} });
    expect(config.server).to.include({ host: '127.0.0.1', port: 8080 });
    expect(config.media).to.deep.equal({ maxBytes: 20971520, timeoutMs: 15000, allowPrivateAddresses: false });
    expect(config.limits).to.deep.equal({ jsonBodyBytes: 26214400, fileBytes: 20971520 });
    expect(config.store).to.deep.equal({ driver: 'sqlite', path: '/cfg/data/gateway.db' });
  });

  it('refuses a platform keyed like one of the gateway\'s own routes (its requests would never reach it)', () => {
    for (const key of ['admin', 'files', 'healthz']) {
      expect(messageOf({ platforms: { [key]: { plugin: 'openai', baseUrl: 'http://x', credentials: [{ apiKey: 'sk-1' }] } } })).to.equal(
        `invalid config /cfg/gateway.config.json: platforms.${key}: "/${key}" is a route of the gateway itself (admin, files, healthz); give the platform another key`,
      );
    }
  });

  it('refuses a baseUrl with a query (it would land inside the path) or ending in the API version the gateway adds', () => {
    for (const baseUrl of ['https://x.openai.azure.com/openai?api-version=2024-10-21', 'https://api.openai.com/v1', 'https://api.openai.com/v1/', 'https://generativelanguage.googleapis.com/v1beta']) {
      expect(messageOf({ platforms: { openai: { plugin: 'openai', baseUrl, credentials: [{ apiKey: 'sk-1' }] } } }), baseUrl).to.equal(
        'invalid config /cfg/gateway.config.json: platforms.openai.baseUrl: must be an http(s) URL with no query, not ending in /v1 (the gateway adds the API version itself)',
      );
    }
    expect(parse({ platforms: { openai: { plugin: 'openai', baseUrl: 'https://x.openai.azure.com/openai', credentials: [{ apiKey: 'sk-1' }] } } }).config.platforms.openai.baseUrl).to.equal('https://x.openai.azure.com/openai');
  });

  it('refuses a baseUrl no request could reach (a port out of range or not a number) at start-up, naming it', () => {
    for (const baseUrl of ['http://127.0.0.1:99999', 'http://host:80800', 'http://host:port']) {
      expect(messageOf({ platforms: { openai: { plugin: 'openai', baseUrl, credentials: [{ apiKey: 'sk-1' }] } } }), baseUrl).to.equal(
        'invalid config /cfg/gateway.config.json: platforms.openai.baseUrl: must be an http(s) URL (a host and, if any, a port from 1 to 65535)',
      );
    }
  });

  it('refuses a key given both as a license and as an admin key (a license never opens /admin), without quoting it', () => {
    const message = messageOf({ licenses: ['lic-aaaaaaaaaaaa'], adminKeys: ['adm-bbbbbbbbbbbb', 'lic-aaaaaaaaaaaa'], platforms: {} });
    expect(message).to.equal('invalid config /cfg/gateway.config.json: adminKeys: admin key 2 is also a license; a license must not open /admin, give each its own key');
    expect(messageOf({ licenses: ['lic-aaaaaaaaaaaa'], platforms: {} }, { GATEWAY_ADMIN_KEYS: 'lic-aaaaaaaaaaaa' })).to.contain('admin key 1 is also a license');
  });

  it('refuses waits too long for a timer (a shutdown grace period or media timeout above a day), naming the field', () => {
    expect(messageOf({ server: { shutdownGraceMs: 3_000_000_000 }, platforms: {} })).to.equal('invalid config /cfg/gateway.config.json: server.shutdownGraceMs: must be <= 86400000');
    expect(messageOf({ media: { timeoutMs: 3_000_000_000 }, platforms: {} })).to.equal('invalid config /cfg/gateway.config.json: media.timeoutMs: must be <= 86400000');
  });

  it('applies PORT, HOST, GATEWAY_LICENSES and GATEWAY_ADMIN_KEYS', () => {
    const { config } = parse({ licenses: ['a'], platforms: {} }, { PORT: '9999', HOST: '0.0.0.0', GATEWAY_LICENSES: 'b, c', GATEWAY_ADMIN_KEYS: 'adm' });
    expect(config.server).to.include({ port: 9999, host: '0.0.0.0' });
    expect(config.licenses).to.deep.equal(['a', 'b', 'c']);
    expect(config.adminKeys).to.deep.equal(['adm']);
  });

  it('refuses a PORT that is not a number rather than read it as 0 (a random port)', () => {
    for (const port of [' ', 'abc', '80.5', '-1', '70000']) {
      expect(() => parse({ licenses: ['a'], platforms: {} }, { PORT: port }), JSON.stringify(port)).to.throw(ConfigError, /^PORT: must be an integer 0-65535/);
    }
  });

  it('resolves env:NAME and drops a credential whose variable is unset, with a warning naming the variable', () => {
    const raw = { platforms: { p: { plugin: 'openai', baseUrl: 'http://x', credentials: [{ apiKey: 'env:SET_KEY' }, { apiKey: 'env:UNSET_KEY' }] } } };
    const { config, warnings } = parse(raw, { SET_KEY: 'sk-set' });
    expect(config.platforms.p.credentials).to.deep.equal([{ apiKey: 'sk-set' }]);
    expect(warnings.join()).to.include('UNSET_KEY');
    expect(warnings.join()).not.to.include('sk-set');
  });

  it('reads a license, an admin key or a credential from env: without the newline a mounted secret file ends in', () => {
    const raw = { licenses: ['env:LIC'], adminKeys: ['env:ADM'], platforms: { p: { plugin: 'openai', baseUrl: 'env:BASE', credentials: [{ apiKey: 'env:KEY' }] } } };
    const { config, warnings } = parse(raw, { LIC: 'lic-env-0123456789\n', ADM: 'adm-env-0123456789\r\n', BASE: 'http://127.0.0.1:9\n', KEY: ' sk-env-0001\n' });
    expect(config.licenses).to.deep.equal(['lic-env-0123456789']);
    expect(config.adminKeys).to.deep.equal(['adm-env-0123456789']);
    expect(config.platforms.p).to.deep.include({ baseUrl: 'http://127.0.0.1:9', credentials: [{ apiKey: 'sk-env-0001' }] });
    expect(warnings).to.deep.equal([]);
  });

  it('stops on a mistyped env: reference, naming the field, rather than send it upstream as the key', () => {
    for (const ref of ['env: OPENAI_API_KEY', 'ENV:OPENAI_API_KEY', 'env:OPENAI-API-KEY']) {
      const raw = { platforms: { openai: { plugin: 'openai', baseUrl: 'http://x', credentials: [{ apiKey: ref }] } } };
      expect(() => parse(raw, { OPENAI_API_KEY: 'sk-real-key-from-env-0001' }), ref).to.throw(ConfigError, /platforms\.openai\.credentials\[0\]\.apiKey: starts with env: but is not an environment reference \(env:NAME/);
    }
    const { config } = parse({ platforms: { openai: { plugin: 'openai', baseUrl: 'http://x', credentials: [{ apiKey: 'env:OPENAI_API_KEY ' }] } } }, { OPENAI_API_KEY: 'sk-real' });
    expect(config.platforms.openai.credentials, 'a trailing space around a valid reference is forgiven').to.deep.equal([{ apiKey: 'sk-real' }]);
  });

  it('names the unset variable when a required field is missing because of it', () => {
    const raw = { platforms: { p: { plugin: 'openai', baseUrl: 'env:UNSET_BASE_URL' } } };
    expect(() => parse(raw, {})).to.throw(ConfigError, /platforms\.p\.baseUrl: is required \(platforms\.p\.baseUrl: environment variable UNSET_BASE_URL is not set\)/);
  });

  it('refuses a blank license or admin key, or one with whitespace at an end, naming it (an empty one let in a credential read as empty)', () => {
    for (const [field, value] of [
      ['licenses', ''],
      ['licenses', '  '],
      ['adminKeys', ' adm-0123456789'],
      ['adminKeys', 'adm-0123456789\t'],
    ] as const) {
      expect(messageOf({ platforms: {}, [field]: ['lic-ok-0123456789', value] }), JSON.stringify(value)).to.equal(
        `invalid config /cfg/gateway.config.json: ${field}[1]: must not be blank, nor start or end with whitespace`,
      );
    }
  });

  const badConfigs: Array<[string, unknown, RegExp]> = [
    ['missing platforms', {}, /platforms: is required/],
    ['a non-URL baseUrl', { platforms: { p: { plugin: 'openai', baseUrl: 'ftp://x' } } }, /platforms\.p\.baseUrl: must be an http\(s\) URL/],
    ['a platform without plugin', { platforms: { p: { baseUrl: 'http://x' } } }, /platforms\.p\.plugin: is required/],
    ['an unknown top-level key', { platforms: {}, servr: {} }, /servr: is not a known field/],
    ['a bad port', { platforms: {}, server: { port: 70000 } }, /server\.port: must be <= 65535/],
    ['a bad store driver', { platforms: {}, store: { driver: 'mongo' } }, /store\.driver: must be one of "memory", "sqlite"/],
    ['a bad segment name', { platforms: { ok: { plugin: 'openai', baseUrl: 'http://x' }, 'Bad Name': { plugin: 'openai', baseUrl: 'http://x' } } }, /platforms: key "Bad Name" must match pattern/],
    ['a string timeout', { platforms: { p: { plugin: 'openai', baseUrl: 'http://x', timeouts: { totalMs: '5' } } } }, /platforms\.p\.timeouts\.totalMs: must be integer/],
  ];
  for (const [name, raw, expected] of badConfigs) {
    it(`rejects ${name} naming the field`, () => {
      expect(messageOf(raw)).to.match(expected);
    });
  }
});
