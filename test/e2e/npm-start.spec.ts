import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import OpenAI from 'openai';
import { productionNodeFlags } from '../../bench/start-flags';
import { replaceDist, type DistBuild } from '../../scripts/build-dist';
import { startSimulator, type Simulator } from '../../simulator';

const ROOT = path.resolve(__dirname, '../..');
const LICENSE = 'lic-npm-start-0123456789';

/** Where `gateway listening` is logged, the gateway serves; resolves with its URL. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const line = out.split('\n').find((l) => l.includes('"gateway listening"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.stderr?.on('data', (data: Buffer) => (err += data.toString()));
    child.once('exit', (code) => reject(new Error(`the gateway exited (${String(code)}) before listening:\n${out}\n${err}`)));
  });
}

describe('e2e: npm start (the production build in dist/, config from gateway.config.ts)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let work: string;
  let build: DistBuild;
  let configFile: string;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    // Inside the repository's node_modules, as dist/ sits inside the repository: third-party packages resolve upwards.
    fs.mkdirSync(path.join(ROOT, 'node_modules', '.cache'), { recursive: true });
    work = fs.mkdtempSync(path.join(ROOT, 'node_modules', '.cache', 'npm-start-'));
    // Twice: the second build replaces the first whole, as every `npm start` does.
    replaceDist(ROOT, path.join(work, 'dist'));
    fs.writeFileSync(path.join(work, 'dist', 'core', 'stale.js'), '');
    build = replaceDist(ROOT, path.join(work, 'dist'));
    configFile = path.join(work, 'site', 'gateway.config.ts');
    fs.mkdirSync(path.dirname(configFile));
    const config = {
      server: { host: '127.0.0.1', port: 0 },
      licenses: ['env:TEST_LICENSE'],
      store: { driver: 'sqlite', path: './data/gateway.db' },
      logging: { level: 'info', format: 'json' },
      platforms: {
        openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-key-0001' }] },
        claude: { plugin: 'claude', baseUrl: sim.anthropicUrl, credentials: [{ apiKey: 'sk-ant-sim-upstream-0001' }] },
      },
    };
    fs.writeFileSync(configFile, `import type { GatewayConfigFile } from '@gateway/core';\n\nconst config: GatewayConfigFile = ${JSON.stringify(config, null, 2)};\n\nexport default config;\n`);
  });
  after(async () => {
    await sim.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('builds plain JavaScript only, replacing the previous build whole, with the @gateway packages pointing at it', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(path.join(dir, entry.name));
        else files.push(path.join(dir, entry.name));
      }
    };
    walk(path.join(build.outDir, 'core'));
    walk(path.join(build.outDir, 'plugins'));
    expect(files.filter((f) => f.endsWith('.ts'))).to.deep.equal([]);
    expect(files).to.include(build.cli);
    expect(files).not.to.include(path.join(build.outDir, 'core', 'stale.js'));
    expect(fs.readdirSync(work).sort()).to.deep.equal(['dist', 'site']);
    expect(build.plugins).to.deep.equal(['claude', 'gemini', 'openai', 'token-pool']);
    for (const name of ['core', 'plugin-openai', 'plugin-claude', 'plugin-gemini', 'plugin-token-pool']) {
      const resolved = require.resolve(`@gateway/${name}`, { paths: [path.join(build.outDir, 'core')] });
      expect(resolved.startsWith(build.outDir) && resolved.endsWith('.js'), `${name} → ${resolved}`).to.equal(true);
    }
  });

  it('serves a passthrough and a translated stream from the build, and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [...productionNodeFlags(ROOT), build.cli, '--config', configFile], {
      cwd: work,
      env: { ...process.env, TEST_LICENSE: LICENSE, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await listening(child);
      const openai = new OpenAI({ apiKey: LICENSE, baseURL: `${url}/openai/v1`, maxRetries: 0 });
      const answer = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'from the build' }] });
      expect(answer.choices[0].message.content).to.equal('Echo: from the build');

      const claude = new OpenAI({ apiKey: LICENSE, baseURL: `${url}/claude/v1`, maxRetries: 0 });
      const stream = await claude.chat.completions.create({ model: 'claude-sonnet-4-6', stream: true, messages: [{ role: 'user', content: 'translated [sim:chunks=4]' }] });
      const pieces: string[] = [];
      for await (const chunk of stream) if (chunk.choices[0]?.delta?.content) pieces.push(chunk.choices[0].delta.content);
      expect(pieces.join('')).to.equal('Echo: translated');
      expect(pieces).to.have.length(4);
      // The store's relative path is the config file's folder, as documented.
      expect(fs.existsSync(path.join(path.dirname(configFile), 'data', 'gateway.db'))).to.equal(true);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).to.equal(0);
  });

  it('reads gateway.config.ts without TypeScript ever entering the gateway process', () => {
    // The same file read by cosmiconfig in-process would load TypeScript's compiler (~40 MB that stays resident).
    const probe = `
      const { loadConfig } = require(${JSON.stringify(path.join(build.outDir, 'core', 'config', 'load-config.js'))});
      const hasTypeScript = () => Object.keys(require.cache).some((file) => file.includes('/node_modules/typescript/'));
      loadConfig({ file: ${JSON.stringify(configFile)}, env: { TEST_LICENSE: 'x' } }).then(async ({ config }) => {
        const viaGateway = hasTypeScript();
        await require('cosmiconfig').cosmiconfig('gateway').load(${JSON.stringify(configFile)});
        console.log(JSON.stringify({ platforms: Object.keys(config.platforms), viaGateway, inProcess: hasTypeScript() }));
      });`;
    const run = spawnSync(process.execPath, ['-e', probe], { cwd: work, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(run.stderr).to.equal('');
    expect(JSON.parse(run.stdout)).to.deep.equal({ platforms: ['openai', 'claude'], viaGateway: false, inProcess: true });
  });
});
