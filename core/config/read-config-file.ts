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

const EXIT_GRACE_MS = 200;

/**
 * cosmiconfig's read of the config file, run in a short-lived child process. Reading `gateway.config.ts` makes
 * cosmiconfig load TypeScript's compiler, which would otherwise stay in the gateway's memory for its whole life
 * (measured: ~40 MB of RSS that no request needs; a worker thread still leaves ~25 MB behind in the allocator).
 * The child runs with tsx's loader, so the config file may import TypeScript modules (its own helpers,
 * `@gateway/core`) as it could when the gateway itself ran through tsx. It sees `env` as its `process.env`, and what
 * it sets there comes back as `envChanges`. What it prints reaches the gateway's stdout and stderr; a file that has
 * not finished loading after `timeoutMs` fails start-up.
 */
export function readConfigFile(request: ConfigFileRequest, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<ConfigFileRead> {
  const entry = path.join(__dirname, `config-reader-process${path.extname(__filename)}`);
  const execArgv = ['--import', pathToFileURL(require.resolve('tsx')).href];
  return new Promise((resolve, reject) => {
    const child = fork(entry, [JSON.stringify(request)], { env, execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
    // Echoed as it comes, not repeated in an error: a config that prints a secret should not print it twice.
    child.stderr?.pipe(process.stderr, { end: false });
    const settle = (outcome: () => void): void => {
      clearTimeout(timer);
      outcome();
    };
    // A config that never settles (a secret store that does not answer) must not hold start-up forever.
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the config file did not finish loading within ${timeoutMs} ms`));
    }, timeoutMs);
    // Settled by the reply itself: a helper the config started may hold the child's stderr open long after.
    child.once('message', (reply: ConfigFileReply) => settle(() => ('error' in reply ? reject(new Error(reply.error)) : resolve(reply))));
    child.once('error', (error) => settle(() => reject(error)));
    // A reply still in the channel when the exit is seen gets a moment to arrive; after a reply this changes
    // nothing (a promise settles once).
    child.once('exit', (code, signal) => {
      const how = signal ? `signal ${signal}` : `exit code ${String(code)}`;
      setTimeout(() => settle(() => reject(new Error(`the config reader stopped (${how}) before it answered; its output, if any, is above`))), EXIT_GRACE_MS);
    });
  });
}
