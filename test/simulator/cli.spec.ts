import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { post } from './raw-client';

const ROOT = path.resolve(__dirname, '../..');

function startCli(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'simulator/cli.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Resolves with everything printed once the three base URLs are out. */
function banner(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      if (out.includes('openai:')) resolve(out);
    });
    child.once('exit', () => reject(new Error(`exited before printing its URLs: ${out}`)));
  });
}

describe('simulator cli', function () {
  this.timeout(20000);

  it('prints the three base URLs, serves them, and exits cleanly on SIGTERM', async () => {
    const child = startCli(['--port', '0', '--chunks', '2']);
    const exited = exitCode(child);
    try {
      const out = await banner(child);
      const openai = /openai:\s+(\S+)/.exec(out)?.[1];
      expect(out).to.match(/anthropic:\s+http:\/\/127\.0\.0\.1:\d+\/anthropic/);
      expect(out).to.match(/gemini:\s+http:\/\/127\.0\.0\.1:\d+\/gemini/);
      expect(openai).to.match(/^http:\/\/127\.0\.0\.1:\d+\/openai$/);
      const raw = await post(`${openai}/v1/chat/completions`, { model: 'o', stream: true, messages: [{ role: 'user', content: 'two' }] }, { authorization: 'Bearer k' });
      expect(raw.text.split('\n\n').filter((e) => /"content":"[^"]/.test(e))).to.have.length(2);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).to.equal(0);
  });

  it('rejects a bad flag value with a message and exit code 1', async () => {
    const child = startCli(['--port', 'abc']);
    let err = '';
    child.stderr?.on('data', (data: Buffer) => (err += data.toString()));
    expect(await exitCode(child)).to.equal(1);
    expect(err).to.include('--port must be a non-negative integer');
  });
});
