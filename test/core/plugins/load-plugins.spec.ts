import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, createGateway, parseConfig } from '@gateway/core';
import { describeLoadError, typeScriptHint } from '../../../core/plugins/load-plugins';

const FIXTURES = path.join(__dirname, 'fixtures');

async function startWith(plugin: string, options: Record<string, unknown> = {}): Promise<unknown> {
  const { config } = parseConfig(
    { store: { driver: 'memory' }, logging: { level: 'silent' }, platforms: { p: { plugin, baseUrl: 'http://127.0.0.1:9', ...options } } },
    path.join(FIXTURES, 'gateway.config.json'),
    {},
  );
  const gateway = await createGateway(config);
  await gateway.close(0);
  return gateway;
}

async function startupError(plugin: string, options: Record<string, unknown> = {}): Promise<string> {
  const error = await startWith(plugin, options).then(() => undefined, (e: unknown) => e);
  expect(error, 'start-up should fail').to.be.instanceOf(ConfigError);
  return (error as Error).message;
}

describe('loadPlugins', () => {
  it('lets go of the sqlite store file when a plugin fails start-up, so the process can start again at once', async () => {
    const store = { driver: 'sqlite', path: path.join(mkdtempSync(path.join(os.tmpdir(), 'gw-plugins-')), 'gw.db') };
    const configOf = (options: Record<string, unknown>) =>
      parseConfig({ store, logging: { level: 'silent' }, platforms: { p: { plugin: 'openai', baseUrl: 'http://127.0.0.1:9', credentials: [], ...options } } }, path.join(FIXTURES, 'gateway.config.json'), {}).config;
    const failed = await createGateway(configOf({ nonsense: true })).then(() => undefined, (e: unknown) => e);
    expect(failed).to.be.instanceOf(ConfigError);
    const started = Date.now();
    const gateway = await createGateway(configOf({}));
    await gateway.close(0);
    expect(Date.now() - started).to.be.below(2000);
  });

  it('loads a workspace plugin by its short name', async () => {
    await startWith('openai', { credentials: [] });
  });

  it('loads a plugin from a path relative to the config file', async () => {
    await startWith('./strict-options-plugin.ts', { rotation: 2 });
  });

  it('stops on an unknown plugin, naming the platform and the plugin', async () => {
    expect(await startupError('no-such-plugin')).to.match(/platforms\.p\.plugin: unknown plugin "no-such-plugin"/);
  });

  it('stops on a module that is not a plugin', async () => {
    expect(await startupError('./not-a-plugin.ts')).to.match(/does not export a gateway plugin/);
  });

  it('stops on a plugin that throws while loading, with its message', async () => {
    expect(await startupError('./throws-on-load-plugin.ts')).to.match(/platforms\.p\.plugin: "\.\/throws-on-load-plugin\.ts" \(.*\) failed to load: this plugin cannot start: missing native module$/);
  });

  it('masks a key in the error of a plugin that throws while loading', async () => {
    const message = await startupError('./throws-key-on-load-plugin.ts');
    expect(message).to.match(/failed to load: cannot init with key sk-proj-\.\.\.0001 from PLUGIN_KEY$/);
    expect(message).not.to.include('AAAAAAAA');
  });

  it('says where a plugin module fails: the file and line of a syntax error, tsx\'s first error after its heading', () => {
    const syntax = new SyntaxError('Unexpected token \'}\'');
    syntax.stack = "/srv/plugins/p.js:12\n  apiKey: 'sk-proj-in-the-source' }\n  ^\n\nSyntaxError: Unexpected token '}'";
    expect(describeLoadError(syntax)).to.equal("Unexpected token '}' (at /srv/plugins/p.js:12)");
    expect(describeLoadError(new Error('Transform failed with 1 error:\n/srv/plugins/p.ts:3:10: ERROR: Expected ";" but found "x"\n  3 | const k = "sk-x" x'))).to.equal(
      '/srv/plugins/p.ts:3:10: ERROR: Expected ";" but found "x"',
    );
    expect(describeLoadError('no credentials file')).to.equal('no credentials file');
  });

  it('stops on a plugin that throws something other than an Error', async () => {
    expect(await startupError('./throws-string-plugin.ts')).to.match(/failed to load: no credentials file$/);
  });

  it('stops on an incompatible plugin API version', async () => {
    expect(await startupError('./old-api-plugin.ts')).to.match(/needs plugin API \^0\.9, core provides 1\./);
  });

  it("hints a TypeScript plugin already in plugins/<name> by its name, one elsewhere into plugins/ or to its JavaScript", () => {
    expect(typeScriptHint('/srv/gw/plugins/echo/src/index.ts')).to.equal(' (a TypeScript file: the build compiles plugins/echo; give it by its name, "plugin": "echo")');
    expect(typeScriptHint('/srv/site/my-plugin.ts')).to.contain('put the plugin in plugins/<name>');
  });

  it('reads apiVersion as the semver range it is documented to be (~1.0.0, >=1.0.0, 1.x load; ^1.0.5 needs more than core 1.0.0)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-api-range-'));
    const pluginWith = (range: string): string => {
      const file = path.join(dir, `${range.replace(/\W/g, '_')}.js`);
      writeFileSync(file, `module.exports = { name: 'ranged', apiVersion: ${JSON.stringify(range)}, apply() {} };\n`);
      return file;
    };
    for (const range of ['~1.0.0', '>=1.0.0', '1.x', '^1']) await startWith(pluginWith(range));
    expect(await startupError(pluginWith('^1.0.5'))).to.match(/needs plugin API \^1\.0\.5, core provides 1\.0\.0/);
    expect(await startupError(pluginWith(''))).to.match(/needs plugin API , core provides 1\.0\.0/);
  });

  it('validates plugin options, naming the plugin and the field', async () => {
    expect(await startupError('./strict-options-plugin.ts', { rotation: 0 })).to.match(/platforms\.p \(plugin "strict-options"\): rotation: must be >= 1/);
    expect(await startupError('openai', { credentials: [{ apiKey: 5 }] })).to.match(/credentials\[0\]\.apiKey: must be string/);
  });

  it('stops on a key neither core nor the plugin declares (a misspelt option), naming it and the plugin', async () => {
    expect(await startupError('openai', { credentials: [{ apiKey: 'sk-x' }], timeout: { totalMs: 5 } })).to.match(/platforms\.p\.timeout: is not a known field of plugin "openai"/);
    await startWith('openai', { credentials: [{ apiKey: 'sk-x' }], models: ['m'], timeouts: { totalMs: 5 }, search: 'passthrough' });
    // A schema that declares keys by pattern or condition judges them itself.
    await startWith('./pattern-options-plugin.ts', { region: 'eu', euEndpoint: 'https://eu', 'x-team': 'a' });
  });
});
