import { fork, type ChildProcess } from 'node:child_process';
import type { StatsCommand, StatsReply } from './process-stats';

/** A benchmark participant in its own process, measured over IPC. */
export interface Child<Ready> {
  name: string;
  ready: Ready;
  /** Starts a new measurement window (CPU zeroed, peak RSS = current). */
  reset(): Promise<StatsReply>;
  read(): Promise<StatsReply>;
  /** Full GC (the child runs with --expose-gc), then a reading: the settled RSS. */
  settle(): Promise<StatsReply>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

/**
 * Forks `node <execArgv> <script>` (with --expose-gc), waits for its `{ready: true}` message. stdout goes to /dev/null (the gateway's
 * log lines are written and discarded, as cheaply as a log shipper could take them); stderr is kept for errors.
 */
export async function startChild<Ready extends { ready: true }>(
  name: string,
  script: string,
  options: { env?: NodeJS.ProcessEnv; execArgv?: string[] } = {},
): Promise<Child<Ready>> {
  const child = fork(script, [], {
    execArgv: [...(options.execArgv ?? ['--import', 'tsx']), '--expose-gc'],
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${START_TIMEOUT_MS} ms\n${stderr}`)), START_TIMEOUT_MS);
    child.once('exit', (code) => reject(new Error(`${name} exited with code ${String(code)} before it was ready\n${stderr}`)));
    child.on('message', function onReady(message: unknown) {
      if (typeof message === 'object' && message !== null && (message as { ready?: unknown }).ready === true) {
        clearTimeout(timer);
        child.off('message', onReady);
        resolve(message as Ready);
      }
    });
  });
  child.removeAllListeners('exit');

  let nextId = 0;
  const ask = (cmd: StatsCommand['cmd']): Promise<StatsReply> =>
    new Promise((resolve, reject) => {
      const id = (nextId += 1);
      const onMessage = (message: unknown): void => {
        const reply = message as StatsReply;
        if (reply?.id !== id) return;
        child.off('message', onMessage);
        resolve(reply);
      };
      child.on('message', onMessage);
      const command: StatsCommand = { cmd, id };
      if (!child.send(command)) reject(new Error(`${name}: IPC channel closed`));
    });

  return {
    name,
    ready,
    reset: () => ask('reset'),
    read: () => ask('read'),
    settle: () => ask('gc'),
    stop: () => stopProcess(child),
  };
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
