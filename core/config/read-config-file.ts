import path from 'node:path';
import { fork } from 'node:child_process';

export interface ConfigFileRequest {
  /** Absolute path of an explicit file; else the places below are searched in `cwd`. */
  file?: string;
  cwd: string;
  searchPlaces: string[];
}

const READ_TIMEOUT_MS = 30_000;

export type ConfigFileReply = { found: { config: unknown; filepath: string } | null } | { error: string };

/**
 * cosmiconfig's read of the config file, run in a short-lived child process. Reading `gateway.config.ts` makes
 * cosmiconfig load TypeScript's compiler, which would otherwise stay in the gateway's memory for its whole life
 * (measured: ~40 MB of RSS that no request needs; a worker thread still leaves ~25 MB behind in the allocator).
 */
export function readConfigFile(request: ConfigFileRequest): Promise<{ config: unknown; filepath: string } | null> {
  const entry = path.join(__dirname, `config-reader-process${path.extname(__filename)}`);
  // Run from TypeScript sources (tests, development), the child needs tsx's loader.
  const execArgv = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return new Promise((resolve, reject) => {
    const child = fork(entry, [JSON.stringify(request)], { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    // A config file that never settles (or keeps its process alive) must not hold start-up forever.
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the config file did not finish loading within ${READ_TIMEOUT_MS / 1000} s`));
    }, READ_TIMEOUT_MS);
    child.once('message', (reply: ConfigFileReply) => {
      clearTimeout(timer);
      child.kill();
      if ('error' in reply) reject(new Error(reply.error));
      else resolve(reply.found);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      // After a reply this changes nothing: a promise settles once.
      reject(new Error(`the config reader stopped (exit code ${String(code)}) before it answered${stderr ? `: ${stderr.trim()}` : ''}`));
    });
  });
}
