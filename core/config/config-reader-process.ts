import { cosmiconfig } from 'cosmiconfig';
import { loadJsonConfig, loadTypeScriptConfig } from './config-file-loaders';
import { describeNonData } from './describe-non-data';
import type { ConfigFileReply, ConfigFileRequest, EnvChanges } from './read-config-file';

/**
 * Child process of readConfigFile: cosmiconfig reads the file and the plain data it holds goes back to the
 * gateway's process, with the environment variables the file set. TypeScript, which cosmiconfig loads to read
 * `gateway.config.ts`, stays in this process and goes away with it.
 */
async function read(request: ConfigFileRequest): Promise<ConfigFileReply> {
  const before = { ...process.env };
  const explorer = cosmiconfig('gateway', { searchPlaces: request.searchPlaces, searchStrategy: 'none', cache: false, loaders: { '.ts': loadTypeScriptConfig, '.json': loadJsonConfig } });
  try {
    const found = request.file ? await explorer.load(request.file) : await explorer.search(request.cwd);
    return { found, envChanges: envChangesSince(before) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function envChangesSince(before: NodeJS.ProcessEnv): EnvChanges {
  const changes: EnvChanges = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && before[name] !== value) changes[name] = value;
  for (const name of Object.keys(before)) if (!(name in process.env)) changes[name] = null;
  return changes;
}

/** Exits once the reply is out: whatever the config file left running (timers, sockets) must not keep this alive. */
function send(reply: ConfigFileReply): void {
  process.send?.(reply, () => process.exit(0));
}

// The gateway is gone (it crashed, or was killed while the config loaded): nobody waits for the answer. Unref'd, so
// the channel alone does not keep this process alive: a config that never settles ends it, and the gateway says so.
process.on('disconnect', () => process.exit(1));
process.channel?.unref();

void read(JSON.parse(process.argv[2] ?? '{}') as ConfigFileRequest).then((reply) => {
  try {
    send(reply);
  } catch {
    // Functions, classes and the like cannot cross processes: the config contract is plain data (DECISIONS §3). The
    // clone error quotes a function's source, credentials and all: the value is named by its place instead.
    const found = 'found' in reply ? reply.found?.config : undefined;
    send({ error: `the config must be plain data: ${describeNonData(found, '')}` });
  }
});

