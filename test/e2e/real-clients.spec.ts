import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startSimulator, type RecordedRequest, type Simulator, type Vendor } from '../../simulator';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';

/**
 * The real coding agents (Claude Code, Codex, Gemini CLI, installed as devDependencies) run as child processes
 * against the gateway, which runs against the simulator on loopback. Each client gets a throw-away HOME, its
 * telemetry and update checks off, and a dead proxy (127.0.0.1:9) for anything that is not loopback.
 */

const ROOT = path.resolve(__dirname, '../..');
const CLIENT_TIMEOUT_MS = 30_000;
const DEAD_PROXY = 'http://127.0.0.1:9';
const UPSTREAM = { anthropic: 'sk-ant-api03-sim-real-client-0001', openai: 'sk-sim-openai-real-client-0001', gemini: 'AIzaSy-sim-real-client-0001' };

const ENTRY = {
  claude: path.join(ROOT, 'node_modules/@anthropic-ai/claude-code/cli-wrapper.cjs'),
  codex: path.join(ROOT, 'node_modules/@openai/codex/bin/codex.js'),
  gemini: path.join(ROOT, 'node_modules/@google/gemini-cli/bundle/gemini.js'),
};
type Client = keyof typeof ENTRY;

interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh HOME with a work dir inside; the environment shares nothing with the test runner but PATH. */
function isolatedEnv(home: string, extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    USERPROFILE: home,
    TMPDIR: path.join(home, 'tmp'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_STATE_HOME: path.join(home, '.local/state'),
    HTTP_PROXY: DEAD_PROXY,
    HTTPS_PROXY: DEAD_PROXY,
    http_proxy: DEAD_PROXY,
    https_proxy: DEAD_PROXY,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    NO_COLOR: '1',
    CI: '1',
    ...extra,
  };
}

/** Runs one client to completion, killing its whole process group at the hard timeout. */
function runClient(client: Client, args: string[], env: Record<string, string>, cwd: string): Promise<ClientRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ENTRY[client], ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`${client} did not finish within ${CLIENT_TIMEOUT_MS} ms\nstdout: ${stdout.slice(-2000)}\nstderr: ${stderr.slice(-2000)}`));
    }, CLIENT_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function describeRun(run: ClientRun): string {
  return `exit ${String(run.code)}\nstdout: ${run.stdout.slice(-3000)}\nstderr: ${run.stderr.slice(-3000)}`;
}

/** The first JSON object a client printed on stdout (some print warnings before it). */
function jsonOutput(run: ClientRun): Record<string, unknown> {
  const start = run.stdout.indexOf('{');
  expect(start, describeRun(run)).to.be.at.least(0);
  return JSON.parse(run.stdout.slice(start)) as Record<string, unknown>;
}

function callsTo(sim: Simulator, vendor: Vendor): RecordedRequest[] {
  return sim.requests.filter((r) => r.vendor === vendor && r.method === 'POST');
}

/** Every text the simulator received in its requests, to find the prompt in whatever wire format. */
function sentText(request: RecordedRequest): string {
  return request.rawBody.toString('utf8');
}

type MessagesBlock = { type: string; id?: string; tool_use_id?: string; name?: string };
type MessagesBody = { messages: Array<{ role: string; content: string | MessagesBlock[] }> };

/** The tool_use the assistant turn carried and the tool_result the next user turn answered it with (Messages wire). */
function messagesToolRoundTrip(request: RecordedRequest): { use?: MessagesBlock; result?: MessagesBlock } {
  const blocks = (request.body as MessagesBody).messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
  return { use: blocks.find((b) => b.type === 'tool_use'), result: blocks.find((b) => b.type === 'tool_result') };
}

type GeminiPart = { functionCall?: { name: string }; thoughtSignature?: string };

/** The functionCall parts a Gemini request carried, from every turn. */
function functionCallParts(request: RecordedRequest): GeminiPart[] {
  return (request.body as { contents: Array<{ parts: GeminiPart[] }> }).contents.flatMap((c) => c.parts).filter((part) => part.functionCall);
}

/** The signature the simulator puts on the function call of its n-th answer (counting from 1 after a reset). */
function simThoughtSignature(n: number): string {
  return Buffer.from(`sim-thought-signature-${n}`).toString('base64');
}

describe('e2e: real coding agents → gateway → simulator', function () {
  this.timeout(CLIENT_TIMEOUT_MS + 10_000);
  let sim: Simulator;
  let gw: RunningGateway;
  let home: string;
  let work: string;

  before(async function () {
    const missing = Object.entries(ENTRY).filter(([, file]) => !existsSync(file));
    if (missing.length > 0) throw new Error(`devDependencies not installed: ${missing.map(([name]) => name).join(', ')} (run npm ci)`);
    sim = await startSimulator({ port: 0 });
    gw = await startGateway({
      claude: { plugin: 'claude', baseUrl: sim.anthropicUrl, credentials: [{ apiKey: UPSTREAM.anthropic }] },
      openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: UPSTREAM.openai }] },
      gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: UPSTREAM.gemini }] },
    });
  });
  after(async () => {
    await gw?.close();
    await sim?.close();
  });
  beforeEach(() => {
    sim.reset();
    home = mkdtempSync(path.join(tmpdir(), 'gw-real-client-'));
    work = path.join(home, 'work');
    for (const dir of [work, path.join(home, 'tmp')]) mkdirSync(dir, { recursive: true });
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  function claude(segment: string, model: string, prompt: string, maxTurns = 1): Promise<ClientRun> {
    const env = isolatedEnv(home, {
      ANTHROPIC_BASE_URL: `${gw.url}/${segment}`,
      ANTHROPIC_API_KEY: TEST_LICENSE,
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    });
    return runClient('claude', ['-p', prompt, '--model', model, '--output-format', 'json', '--max-turns', String(maxTurns)], env, work);
  }

  /** `providerLines`: more settings of the gateway's provider entry (`stream_max_retries = 0`). */
  function codex(segment: string, model: string, prompt: string, providerLines: string[] = []): Promise<ClientRun> {
    const codexHome = path.join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      path.join(codexHome, 'config.toml'),
      [
        `model = "${model}"`,
        'model_provider = "gateway"',
        'check_for_update_on_startup = false',
        '[model_providers.gateway]',
        'name = "gateway"',
        `base_url = "${gw.url}/${segment}/v1"`,
        'wire_api = "responses"',
        'env_key = "GATEWAY_LICENSE"',
        ...providerLines,
        '[analytics]',
        'enabled = false',
        '[otel]',
        'exporter = "none"',
        // The plugin marketplace clones github.com at start-up; the model needs no tool to echo.
        '[features]',
        'plugins = false',
        'remote_plugin = false',
        'apps = false',
        'shell_tool = false',
        'unified_exec = false',
        '',
      ].join('\n'),
    );
    const env = isolatedEnv(home, { CODEX_HOME: codexHome, GATEWAY_LICENSE: TEST_LICENSE });
    return runClient('codex', ['exec', '--skip-git-repo-check', '--sandbox', 'read-only', prompt], env, work);
  }

  function gemini(segment: string, model: string, prompt: string): Promise<ClientRun> {
    const settings = {
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    };
    mkdirSync(path.join(home, '.gemini'), { recursive: true });
    writeFileSync(path.join(home, '.gemini/settings.json'), JSON.stringify(settings));
    const env = isolatedEnv(home, {
      GOOGLE_GEMINI_BASE_URL: `${gw.url}/${segment}`,
      GEMINI_API_KEY: TEST_LICENSE,
      GEMINI_CLI_NO_RELAUNCH: 'true',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    });
    return runClient('gemini', ['-m', model, '-p', prompt, '--output-format', 'json'], env, work);
  }

  describe('Claude Code', () => {
    it('→ /claude: native passthrough of /v1/messages?beta=true with its beta flags and tools; prints the echo', async () => {
      const run = await claude('claude', 'claude-sonnet-4-6', 'hello claude-native-zebra');
      expect(run.code, describeRun(run)).to.equal(0);
      const out = jsonOutput(run);
      expect(out.is_error, describeRun(run)).to.equal(false);
      expect(out.result).to.be.a('string').that.includes('Echo: ').and.includes('claude-native-zebra');

      const calls = callsTo(sim, 'anthropic').filter((r) => sentText(r).includes('claude-native-zebra'));
      expect(calls, JSON.stringify(sim.requests.map((r) => r.path))).to.have.length.at.least(1);
      const seen = calls[0];
      expect(seen.path).to.equal('/v1/messages');
      expect(seen.query).to.deep.equal({ beta: 'true' });
      expect(String(seen.headers['anthropic-beta'])).to.include('claude-code-20250219');
      expect(seen.headers['x-api-key']).to.equal(UPSTREAM.anthropic);
      expect(JSON.stringify(seen.headers)).not.to.include(TEST_LICENSE);
      const body = seen.body as { model: string; stream: boolean; tools: unknown[] };
      expect(body.model).to.equal('claude-sonnet-4-6');
      expect(body.stream).to.equal(true);
      expect(body.tools).to.have.length.above(5);
    });

    it('→ /openai: messages translated to chat completions with its tools; prints the echo', async () => {
      const run = await claude('openai', 'gpt-4.1-mini', 'hello claude-to-chat-walrus');
      expect(run.code, describeRun(run)).to.equal(0);
      const out = jsonOutput(run);
      expect(out.is_error, describeRun(run)).to.equal(false);
      expect(out.result).to.be.a('string').that.includes('Echo: ').and.includes('claude-to-chat-walrus');

      const seen = callsTo(sim, 'openai').find((r) => sentText(r).includes('claude-to-chat-walrus'));
      expect(seen, JSON.stringify(sim.requests.map((r) => r.path))).not.to.equal(undefined);
      expect(seen!.path).to.equal('/v1/chat/completions');
      expect(seen!.headers.authorization).to.equal(`Bearer ${UPSTREAM.openai}`);
      const body = seen!.body as { model: string; stream: boolean; tools: Array<{ type: string }> };
      expect(body.model).to.equal('gpt-4.1-mini');
      expect(body.stream).to.equal(true);
      expect(body.tools).to.have.length.above(5);
      expect(body.tools.every((tool) => tool.type === 'function')).to.equal(true);
    });
  });

  describe('Claude Code, tool round trip', () => {
    it('→ /openai: the simulator calls its first tool (Agent), the sub-agent and the tool result go back through chat', async () => {
      const run = await claude('openai', 'gpt-4.1-mini', 'delegate claude-tool-puffin [sim:tool]', 2);
      expect(run.code, describeRun(run)).to.equal(0);
      const out = jsonOutput(run);
      expect(out.is_error, describeRun(run)).to.equal(false);
      expect(out.result).to.be.a('string').that.matches(/^Tool said: /);

      type ChatMessage = { role: string; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>; tool_call_id?: string };
      const last = callsTo(sim, 'openai').at(-1)!;
      const messages = (last.body as { messages: ChatMessage[] }).messages;
      const call = messages.flatMap((m) => m.tool_calls ?? [])[0];
      expect(call, JSON.stringify(messages).slice(0, 2000)).not.to.equal(undefined);
      expect(call.function.name).to.equal('Agent');
      expect(JSON.parse(call.function.arguments)).to.be.an('object');
      expect(messages.find((m) => m.role === 'tool')?.tool_call_id).to.equal(call.id);
    });
  });

  describe('Claude Code, tool round trip on Gemini 3', () => {
    it('→ /gemini: the function call goes back with the thought signature Gemini sent, not the placeholder', async () => {
      const run = await claude('gemini', 'gemini-3-pro-preview', 'delegate claude-gemini-tool-lynx [sim:tool]', 2);
      expect(run.code, describeRun(run)).to.equal(0);
      const out = jsonOutput(run);
      expect(out.is_error, describeRun(run)).to.equal(false);

      const calls = callsTo(sim, 'gemini');
      // The simulator signs its n-th answer with sim-thought-signature-n; every call it made must come back with its own.
      const sent = new Set(calls.map((_, i) => simThoughtSignature(i + 1)));
      const returned = calls.flatMap(functionCallParts);
      expect(returned.length, JSON.stringify(sim.requests.map((r) => r.path))).to.be.above(0);
      for (const part of returned) expect(sent.has(part.thoughtSignature ?? ''), `${part.functionCall?.name}: ${part.thoughtSignature}`).to.equal(true);
    });
  });

  describe('Codex', () => {
    it('→ /openai: the streamed /v1/responses request passes through (store:false, encrypted reasoning); prints the echo', async () => {
      const run = await codex('openai', 'gpt-4.1-mini', 'hello codex-native-heron');
      expect(run.code, describeRun(run)).to.equal(0);
      expect(run.stdout, describeRun(run)).to.include('Echo: ').and.include('codex-native-heron');

      const calls = callsTo(sim, 'openai');
      expect(calls.map((r) => r.path)).to.deep.equal(['/v1/responses']);
      const seen = calls[0];
      expect(seen.headers.authorization).to.equal(`Bearer ${UPSTREAM.openai}`);
      expect(String(seen.headers['user-agent'])).to.match(/^codex_exec\//);
      const body = seen.body as { model: string; stream: boolean; store: boolean; include: string[]; tools: Array<{ type: string }> };
      expect(body).to.include({ model: 'gpt-4.1-mini', stream: true, store: false });
      expect(body.include).to.include('reasoning.encrypted_content');
      expect(body.tools.length).to.be.above(0);
      expect(sentText(seen)).to.include('codex-native-heron');
    });

    it('→ /claude: responses translated to messages; prints the echo', async () => {
      const run = await codex('claude', 'claude-sonnet-4-6', 'hello codex-to-claude-otter');
      expect(run.code, describeRun(run)).to.equal(0);
      expect(run.stdout, describeRun(run)).to.include('Echo: ').and.include('codex-to-claude-otter');

      const seen = callsTo(sim, 'anthropic').find((r) => sentText(r).includes('codex-to-claude-otter'));
      expect(seen, JSON.stringify(sim.requests.map((r) => r.path))).not.to.equal(undefined);
      expect(seen!.path).to.equal('/v1/messages');
      expect(seen!.headers['x-api-key']).to.equal(UPSTREAM.anthropic);
      const body = seen!.body as { model: string; stream: boolean; tools: Array<{ type?: string; name: string; input_schema?: unknown }> };
      expect(body.model).to.equal('claude-sonnet-4-6');
      expect(body.stream).to.equal(true);
      // Codex's function tools keep their schemas, its namespace tools are flattened, web_search becomes the server tool.
      const functions = body.tools.filter((tool) => tool.type === undefined || tool.type === 'custom');
      expect(functions.map((tool) => tool.name)).to.include.members(['view_image', 'spawn_agent']);
      for (const tool of functions) expect(tool.input_schema, tool.name).to.be.an('object');
      expect(body.tools.filter((tool) => tool.type !== undefined && tool.type !== 'custom').map((tool) => [tool.type, tool.name])).to.deep.equal([['web_search_20250305', 'web_search']]);
    });
  });

  describe('Codex, an answer that fails mid-stream', () => {
    it("→ /claude: Codex reports the upstream's error (from response.failed), not a stream that closed early", async () => {
      const run = await codex('claude', 'claude-sonnet-4-6', 'hello codex-failing-heron [sim:midstream-error]', ['stream_max_retries = 0', 'request_max_retries = 0']);
      expect(run.code, describeRun(run)).to.not.equal(0);
      const said = run.stdout + run.stderr;
      expect(said, describeRun(run)).to.include('Overloaded');
      expect(said, describeRun(run)).to.not.include('stream closed before response.completed');
    });
  });

  describe('Codex, tool round trip', () => {
    it('→ /claude: tool_use comes back as a function call, its output goes up as a tool_result with the same id', async () => {
      const run = await codex('claude', 'claude-sonnet-4-6', 'ask codex-tool-marten [sim:tool]');
      expect(run.code, describeRun(run)).to.equal(0);
      expect(run.stdout, describeRun(run)).to.match(/^Tool said: /m);

      const calls = callsTo(sim, 'anthropic');
      expect(calls, JSON.stringify(sim.requests.map((r) => r.path))).to.have.length(2);
      const { use, result } = messagesToolRoundTrip(calls[1]);
      expect(use?.name).to.be.a('string');
      expect(result?.tool_use_id).to.equal(use?.id);
    });
  });

  describe('Codex, tool round trip on Gemini 3', () => {
    it('→ /gemini: the function call goes back with the thought signature Gemini sent, not the placeholder', async () => {
      const run = await codex('gemini', 'gemini-3-pro-preview', 'ask codex-gemini-tool-wren [sim:tool]');
      expect(run.code, describeRun(run)).to.equal(0);
      expect(run.stdout, describeRun(run)).to.match(/^Tool said: /m);

      const calls = callsTo(sim, 'gemini');
      expect(calls, JSON.stringify(sim.requests.map((r) => r.path))).to.have.length(2);
      expect(functionCallParts(calls[1]).map((part) => part.thoughtSignature)).to.deep.equal([simThoughtSignature(1)]);
    });
  });

  describe('Gemini CLI', () => {
    it('→ /gemini: native :streamGenerateContent?alt=sse with our key; prints the echo', async () => {
      const run = await gemini('gemini', 'gemini-2.5-flash', 'hello gemini-native-lynx');
      expect(run.code, describeRun(run)).to.equal(0);
      const out = jsonOutput(run);
      expect(out.response, describeRun(run)).to.be.a('string').that.includes('Echo: ').and.includes('gemini-native-lynx');

      const seen = callsTo(sim, 'gemini').find((r) => r.path.endsWith(':streamGenerateContent') && sentText(r).includes('gemini-native-lynx'));
      expect(seen, JSON.stringify(sim.requests.map((r) => r.path))).not.to.equal(undefined);
      expect(seen!.path).to.equal('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
      expect(seen!.query).to.deep.equal({ alt: 'sse' });
      expect(seen!.headers['x-goog-api-key']).to.equal(UPSTREAM.gemini);
      expect(JSON.stringify(seen!.headers)).not.to.include(TEST_LICENSE);
      const body = seen!.body as { tools: Array<{ functionDeclarations?: unknown[] }> };
      expect(body.tools[0].functionDeclarations).to.have.length.above(3);
    });

    it('→ /claude: a tool round trip — tool_use becomes a functionCall, the functionResponse a tool_result with the same id', async () => {
      const run = await gemini('claude', 'claude-sonnet-4-6', 'note gemini-tool-gannet [sim:tool]');
      expect(run.code, describeRun(run)).to.equal(0);
      const out = jsonOutput(run);
      expect(out.response, describeRun(run)).to.be.a('string').that.matches(/^Tool said: /);

      const calls = callsTo(sim, 'anthropic');
      expect(calls, JSON.stringify(sim.requests.map((r) => r.path))).to.have.length(2);
      const { use, result } = messagesToolRoundTrip(calls[1]);
      expect(use?.name).to.be.a('string');
      expect(result?.tool_use_id).to.equal(use?.id);
    });

    it('→ /claude: streamGenerateContent translated to messages; prints the echo', async () => {
      const run = await gemini('claude', 'claude-sonnet-4-6', 'hello gemini-to-claude-ibis');
      expect(run.code, describeRun(run)).to.equal(0);
      const out = jsonOutput(run);
      expect(out.response, describeRun(run)).to.be.a('string').that.includes('Echo: ').and.includes('gemini-to-claude-ibis');

      const seen = callsTo(sim, 'anthropic').find((r) => sentText(r).includes('gemini-to-claude-ibis'));
      expect(seen, JSON.stringify(sim.requests.map((r) => r.path))).not.to.equal(undefined);
      expect(seen!.path).to.equal('/v1/messages');
      expect(seen!.headers['x-api-key']).to.equal(UPSTREAM.anthropic);
      const body = seen!.body as { model: string; stream: boolean; tools: Array<{ name: string }> };
      expect(body.model).to.equal('claude-sonnet-4-6');
      expect(body.stream).to.equal(true);
      expect(body.tools).to.have.length.above(3);
    });
  });
});
