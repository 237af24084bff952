import path from 'node:path';
import { buildDist, transpileFile } from '../scripts/build-dist';

/**
 * The production build `npm start` runs (scripts/build-dist.ts), plus the benchmark's gateway process beside it.
 * Third-party packages come from the repository's node_modules through NODE_PATH.
 */
export function buildGateway(root: string, outDir: string): { script: string; nodePath: string } {
  buildDist(root, outDir);
  transpileFile(root, outDir, path.join(root, 'bench', 'process-stats.ts'));
  return { script: transpileFile(root, outDir, path.join(root, 'bench', 'gateway-process.ts')), nodePath: path.join(root, 'node_modules') };
}
