import fs from 'node:fs';
import path from 'node:path';

/**
 * The V8 flags `npm start` runs the gateway with (`--max-…` tokens of package.json's start script), so the
 * benchmark measures the gateway as it is deployed. One place states them: the start script.
 */
export function productionNodeFlags(root: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const start = pkg.scripts?.start ?? '';
  return start.split(/\s+/).filter((token) => /^--max-[\w-]+=\d+$/.test(token));
}
