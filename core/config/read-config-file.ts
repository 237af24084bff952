import { fork } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ConfigFileRequest {
  /** Absolute path of an explicit file; else the places below are searched in `cwd`. */
  file?: string;
  cwd: string;
  searchPlaces: string[];
}

/** Environment variables the config file set (a string) or removed (null) while it loaded, as `dotenv` does. */
export type EnvChanges = Record<string, string | null>;

export interface ConfigFileRead {
  found: { config: unknown; filepath: string } | null;
  envChanges: EnvChanges;
}

export type ConfigFileReply = ConfigFileRead | { error: string };

/**
 * cosmiconfig's read of the config file, run in a short-lived child process. Reading `gateway.config.ts` makes
 * cosmiconfig load TypeScript's compiler, which would otherwise stay in the gateway's memory for its whole life
 * (measured: ~40 MB of RSS that no request needs; a worker thread still leaves ~25 MB behind in the allocator).
 * The child runs with tsx's loader, so the config file may import TypeScript modules (its own helpers,
 * `@gateway/core`) as it could when the gateway itself ran through tsx. What it prints reaches the gateway's
 * stdout and stderr. It sees `env` as its `process.env`; what it sets there comes back as `envChanges`.
 */
export function readConfigFile(request: ConfigFileRequest, env: NodeJS.ProcessEnv): Promise<ConfigFileRead> {
  const entry = path.join(__dirname, `config-reader-process${path.extname(__filename)}`);
  const execArgv = ['--import', pathToFileURL(require.resolve('tsx')).href];
  return new Promise((resolve, reject) => {
    const child = fork(entry, [JSON.stringify(request)], { env, execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    let reply: ConfigFileReply | undefined;
    child.once('message', (message: ConfigFileReply) => {
      reply = message;
    });
    child.once('error', reject);
    // 'close': the process has exited and its stderr has been read to the end.
    child.once('close', (code, signal) => {
      if (!reply) {
        const how = signal ? `signal ${signal}` : `exit code ${String(code)}`;
        reject(new Error(`the config reader stopped (${how}) before it answered${stderr ? `: ${stderr.trim()}` : ''}`));
      } else if ('error' in reply) reject(new Error(reply.error));
      else resolve(reply);
    });
  });
}
