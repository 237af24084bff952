import { cosmiconfig } from 'cosmiconfig';
import type { ConfigFileReply, ConfigFileRequest } from './read-config-file';

/**
 * Child process of readConfigFile: cosmiconfig reads the file and the plain data it holds goes back to the
 * gateway's process. TypeScript, which cosmiconfig loads to read `gateway.config.ts`, stays in this process and goes
 * away with it.
 */
async function read(request: ConfigFileRequest): Promise<ConfigFileReply> {
  const explorer = cosmiconfig('gateway', { searchPlaces: request.searchPlaces, searchStrategy: 'none', cache: false });
  try {
    const found = request.file ? await explorer.load(request.file) : await explorer.search(request.cwd);
    return { found };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** Exits once the reply is out: whatever the config file left running (timers, sockets) must not keep this alive. */
function send(reply: ConfigFileReply): void {
  process.send?.(reply, () => process.exit(0));
}

void read(JSON.parse(process.argv[2] ?? '{}') as ConfigFileRequest).then((reply) => {
  try {
    send(reply);
  } catch (error) {
    // Functions, classes and the like cannot cross processes: the config contract is plain data (DECISIONS §3).
    send({ error: `the config must be plain data: ${(error as Error).message}` });
  }
});
