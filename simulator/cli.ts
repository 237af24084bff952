import { parseArgs } from 'node:util';
import { startSimulator } from './create-simulator';

/** `npm run simulator -- --port 8090 --chunks 5 --chunk-delay 20`: the fake upstreams for demos and benchmarks. */

function toNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return parsed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      chunks: { type: 'string' },
      'chunk-delay': { type: 'string' },
      latency: { type: 'string' },
    },
  });
  const simulator = await startSimulator({
    port: toNumber('--port', values.port ?? process.env.SIM_PORT) ?? 8090,
    host: values.host ?? process.env.SIM_HOST ?? '127.0.0.1',
    chunks: toNumber('--chunks', values.chunks),
    chunkDelayMs: toNumber('--chunk-delay', values['chunk-delay']),
    latencyMs: toNumber('--latency', values.latency),
  });
  process.stdout.write(
    `upstream simulator listening on ${simulator.url}\n` +
      `  anthropic: ${simulator.anthropicUrl}\n` +
      `  gemini:    ${simulator.geminiUrl}\n` +
      `  openai:    ${simulator.openaiUrl}\n`,
  );
  const stop = (): void => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`simulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
