import fs from 'node:fs';
import path from 'node:path';

/** Node options whose value is the next token (a module to load), not a flag of their own. */
const TAKES_ARGUMENT = new Set(['--import', '--require', '-r', '--loader']);

/**
 * The numeric Node/V8 settings `npm start` runs the gateway with (`--name=N` tokens between `node` and the script of
 * package.json's start script, such as `--max-semi-space-size=8`), so the benchmark measures the gateway as it is
 * deployed. One place states them: the start script. Tokens after the script are the script's own arguments.
 */
export function productionNodeFlags(root: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  // `exec node …`: the shell npm runs the script in becomes node (so that npm's signals reach it).
  const tokens = (pkg.scripts?.start ?? '').split(/\s+/).filter(Boolean);
  if (tokens[0] === 'exec') tokens.shift();
  const flags: string[] = [];
  for (let i = tokens[0] === 'node' ? 1 : tokens.length; i < tokens.length; i += 1) {
    const token = tokens[i];
    if (TAKES_ARGUMENT.has(token)) i += 1;
    else if (!token.startsWith('-')) break;
    else if (/^--[\w-]+=\d+$/.test(token)) flags.push(token);
  }
  return flags;
}
