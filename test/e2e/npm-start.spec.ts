import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import OpenAI from 'openai';
import { staleBuildReason } from '../../core/source-stamp';
import { buildDist } from '../../scripts/build-dist';
import { startSimulator, type Simulator } from '../../simulator';

const ROOT = path.resolve(__dirname, '../..');
const LICENSE = 'lic-npm-start-0123456789';
const SCRIPTS = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** `npm start -- --config <file>` as npm runs its script (a shell that the script's `exec` makes node). */
function npmStart(configFile: string): ChildProcess {
  return spawn('sh', ['-c', `${SCRIPTS.start} --config '${configFile}'`], {
    cwd: ROOT,
    env: { ...process.env, TEST_LICENSE: LICENSE, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Where `gateway listening` is logged, the gateway serves; resolves with its URL (and the line, on `lines`). */
function listening(child: ChildProcess, lines: Array<Record<string, unknown>> = []): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const line = out.split('\n').find((l) => l.includes('"gateway listening"'));
      if (!line) return;
      const parsed = JSON.parse(line) as { url: string };
      lines.push(parsed);
      resolve(parsed.url);
    });
    child.stderr?.on('data', (data: Buffer) => (err += data.toString()));
    child.once('exit', (code) => reject(new Error(`the gateway exited (${String(code)}) before listening:\n${out}\n${err}`)));
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

describe('e2e: npm start (prestart builds dist/, start runs it with gateway.config.ts)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let site: string;

  before(async () => {
    const build = spawnSync('sh', ['-c', SCRIPTS.prestart], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(build.status, build.stderr).to.equal(0);
    sim = await startSimulator({ port: 0 });
    // An operator's folder inside the repository (as the shipped gateway.config.ts is): `@gateway/core` found by
    // walking up from here is the TypeScript source, which plain node cannot load.
    fs.mkdirSync(path.join(ROOT, 'node_modules', '.cache'), { recursive: true });
    site = fs.mkdtempSync(path.join(ROOT, 'node_modules', '.cache', 'npm-start-'));
    fs.writeFileSync(path.join(site, 'upstreams.ts'), `export const simulator: { openai: string; anthropic: string } = ${JSON.stringify({ openai: sim.openaiUrl, anthropic: sim.anthropicUrl })};\n`);
    // A JavaScript plugin given by path that builds on core and on a shipped plugin.
    fs.writeFileSync(
      path.join(site, 'custom-plugin.js'),
      "const { PLUGIN_API_VERSION } = require('@gateway/core');\nconst openai = require('@gateway/plugin-openai').default;\n" +
        "module.exports = { ...openai, name: 'custom-openai', apiVersion: `^${PLUGIN_API_VERSION.split('.')[0]}` };\n",
    );
    const config = `import { PLUGIN_API_VERSION, type GatewayConfigFile } from '@gateway/core';
import { simulator } from './upstreams';

// dotenv style: the gateway resolves env: references against what the file set.
process.env.SITE_OPENAI_KEY ??= 'sk-sim-upstream-key-0001';

const config: GatewayConfigFile = {
  server: { host: '127.0.0.1', port: 0 },
  licenses: ['env:TEST_LICENSE'],
  store: { driver: 'sqlite', path: './data/gateway.db' },
  logging: { level: PLUGIN_API_VERSION ? 'info' : 'debug', format: 'json' },
  platforms: {
    openai: { plugin: 'openai', baseUrl: simulator.openai, credentials: [{ apiKey: 'env:SITE_OPENAI_KEY' }] },
    claude: { plugin: 'claude', baseUrl: simulator.anthropic, credentials: [{ apiKey: 'sk-ant-sim-upstream-0001' }] },
    custom: { plugin: './custom-plugin.js', baseUrl: simulator.openai, credentials: [{ apiKey: 'env:SITE_OPENAI_KEY' }] },
  },
};

export default config;
`;
    fs.writeFileSync(path.join(site, 'gateway.config.ts'), config);
  });
  after(async () => {
    await sim.close();
    fs.rmSync(site, { recursive: true, force: true });
  });

  it('builds plain JavaScript only', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(path.join(dir, entry.name));
        else files.push(path.join(dir, entry.name));
      }
    };
    walk(path.join(ROOT, 'dist', 'core'));
    walk(path.join(ROOT, 'dist', 'plugins'));
    expect(files.filter((f) => f.endsWith('.ts'))).to.deep.equal([]);
    expect(files).to.include(path.join(ROOT, 'dist', 'core', 'cli.js'));
  });

  it('serves shipped and custom plugins from the build with a config that imports TypeScript, and stops on SIGTERM', async () => {
    const child = npmStart(path.join(site, 'gateway.config.ts'));
    const stopped = exited(child);
    try {
      const lines: Array<Record<string, unknown>> = [];
      const url = await listening(child, lines);
      // The start-up line says where the state lives.
      expect(lines[0].store).to.equal(path.join(site, 'data', 'gateway.db'));
      const openai = new OpenAI({ apiKey: LICENSE, baseURL: `${url}/openai/v1`, maxRetries: 0 });
      const answer = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'from the build' }] });
      expect(answer.choices[0].message.content).to.equal('Echo: from the build');

      const custom = new OpenAI({ apiKey: LICENSE, baseURL: `${url}/custom/v1`, maxRetries: 0 });
      const viaCustom = await custom.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'custom plugin' }] });
      expect(viaCustom.choices[0].message.content).to.equal('Echo: custom plugin');

      const claude = new OpenAI({ apiKey: LICENSE, baseURL: `${url}/claude/v1`, maxRetries: 0 });
      const stream = await claude.chat.completions.create({ model: 'claude-sonnet-4-6', stream: true, messages: [{ role: 'user', content: 'translated [sim:chunks=4]' }] });
      const pieces: string[] = [];
      for await (const chunk of stream) if (chunk.choices[0]?.delta?.content) pieces.push(chunk.choices[0].delta.content);
      expect(pieces.join('')).to.equal('Echo: translated');
      expect(pieces).to.have.length(4);
      // The store's relative path is the config file's folder, as documented.
      expect(fs.existsSync(path.join(site, 'data', 'gateway.db'))).to.equal(true);
    } finally {
      child.kill('SIGTERM');
    }
    expect((await stopped).code).to.equal(0);
  });

  it('stops gracefully when npm itself gets SIGTERM (a supervisor or `docker stop` signals npm, not node)', async () => {
    // npm runs the script in a shell, and a signal to npm reaches only that shell's process: the script's `exec`
    // makes it node, so the gateway gets the signal (it was left running, holding the store's lock).
    const npm = spawn('npm', ['start', '--silent', '--', '--config', path.join(site, 'gateway.config.ts')], {
      cwd: ROOT,
      env: { ...process.env, TEST_LICENSE: LICENSE, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stopped = exited(npm);
    let out = '';
    npm.stdout?.on('data', (data: Buffer) => (out += data.toString()));
    const url = await listening(npm);
    npm.kill('SIGTERM');
    await stopped;
    expect(out).to.include('"signal":"SIGTERM"');
    const after = await fetch(`${url}/healthz`).then(
      () => 'still answering',
      () => 'stopped',
    );
    expect(after).to.equal('stopped');
  });

  it('stops gracefully on SIGHUP (a closed terminal), as on SIGTERM, rather than dying at once', async () => {
    const child = npmStart(path.join(site, 'gateway.config.ts'));
    const stopped = exited(child);
    let out = '';
    child.stdout?.on('data', (data: Buffer) => (out += data.toString()));
    await listening(child);
    child.kill('SIGHUP');
    const { code } = await stopped;
    expect(code).to.equal(0);
    expect(out).to.include('"signal":"SIGHUP"');
  });

  it('stops start-up on a TypeScript plugin outside the build, saying what to do', async () => {
    fs.writeFileSync(path.join(site, 'ts-plugin.ts'), "import type { GatewayPlugin } from '@gateway/core';\nconst plugin: GatewayPlugin = { name: 'ts', apiVersion: '^1', apply() {} };\nexport default plugin;\n");
    const configFile = path.join(site, 'ts-plugin.config.json');
    fs.writeFileSync(configFile, JSON.stringify({ server: { port: 0 }, licenses: ['env:TEST_LICENSE'], store: { driver: 'memory' }, platforms: { mine: { plugin: './ts-plugin.ts', baseUrl: 'http://127.0.0.1:9' } } }));
    const { code, stderr } = await exited(npmStart(configFile));
    expect(code).to.equal(1);
    expect(stderr).to.match(/platforms\.mine\.plugin: "\.\/ts-plugin\.ts" \(.*\) failed to load: .*\(a TypeScript file: put the plugin in plugins\/<name> so the build compiles it/);
  });

  it("names the unset variable behind a plugin option the check finds missing (the file sets it, as env:NAME)", async () => {
    fs.writeFileSync(path.join(site, 'prefix-plugin.js'), "module.exports = { name: 'prefixed', apiVersion: '^1', optionsSchema: { type: 'object', required: ['prefix'], properties: { prefix: { type: 'string' } } }, apply() {} };\n");
    const configFile = path.join(site, 'env-option.config.json');
    fs.writeFileSync(configFile, JSON.stringify({ server: { port: 0 }, licenses: ['env:TEST_LICENSE'], store: { driver: 'memory' }, platforms: { mine: { plugin: './prefix-plugin.js', baseUrl: 'http://127.0.0.1:9', prefix: 'env:UNSET_PREFIX_FOR_TEST' } } }));
    const { code, stderr } = await exited(npmStart(configFile));
    expect(code).to.equal(1);
    expect(stderr).to.match(/prefix: is required.*environment variable UNSET_PREFIX_FOR_TEST is not set/);
  });

  it('refuses to start from a dist/ that was not built from the sources beside it', async () => {
    // A checkout of its own (inside node_modules/.cache, so packages resolve upwards): its sources change after the build.
    const checkout = fs.mkdtempSync(path.join(ROOT, 'node_modules', '.cache', 'stale-'));
    try {
      for (const dir of ['core', 'plugins']) fs.cpSync(path.join(ROOT, dir), path.join(checkout, dir), { recursive: true, filter: (from) => !from.includes('node_modules') });
      const build = buildDist(checkout, path.join(checkout, 'dist'));
      expect(staleBuildReason(build.outDir, checkout)).to.equal(undefined);
      fs.appendFileSync(path.join(checkout, 'core', 'gateway.ts'), '\n// edited after the build\n');
      const child = spawn(process.execPath, [build.cli, '--config', path.join(site, 'gateway.config.ts')], { cwd: checkout, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
      const { code, stderr } = await exited(child);
      expect(code).to.equal(1);
      expect(stderr.trim()).to.equal(`${build.outDir} was not built from the sources in ${checkout}: run \`npm run build\` (\`npm start\` does it first, unless npm scripts are ignored)`);
    } finally {
      fs.rmSync(checkout, { recursive: true, force: true });
    }
  });

  it('prints its usage for --help and exits 0, starting nothing', () => {
    const run = spawnSync('sh', ['-c', `${SCRIPTS.start} --help`], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 20_000 });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^Usage: npm start -- \[--config <file>\]/).and.include('GATEWAY_CONFIG');
  });

  it('reads gateway.config.ts without TypeScript ever entering the gateway process', () => {
    // The same file read by cosmiconfig in-process would load TypeScript's compiler (~40 MB that stays resident).
    const configFile = path.join(site, 'gateway.config.ts');
    const probe = `
      const { loadConfig } = require(${JSON.stringify(path.join(ROOT, 'dist', 'core', 'config', 'load-config.js'))});
      const hasTypeScript = () => Object.keys(require.cache).some((file) => file.includes('/node_modules/typescript/'));
      loadConfig({ file: ${JSON.stringify(configFile)} }).then(async ({ config }) => {
        const viaGateway = hasTypeScript();
        await require('cosmiconfig').cosmiconfig('gateway').load(${JSON.stringify(path.join(site, 'upstreams.ts'))});
        console.log(JSON.stringify({ platforms: Object.keys(config.platforms), viaGateway, inProcess: hasTypeScript() }));
      });`;
    const run = spawnSync(process.execPath, ['-e', probe], { cwd: site, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', TEST_LICENSE: 'x' } });
    expect(run.stderr).to.equal('');
    expect(JSON.parse(run.stdout)).to.deep.equal({ platforms: ['openai', 'claude', 'custom'], viaGateway: false, inProcess: true });
  });
});
