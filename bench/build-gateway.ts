import fs from 'node:fs';
import path from 'node:path';
import { buildDist, transpileFile } from '../scripts/build-dist';

/** The benchmark's three processes as plain JavaScript, each script run with `node` alone. */
export interface BenchBuild {
  /** The gateway (bench/gateway-process) on the production build. */
  script: string;
  /** The upstream simulator (bench/simulator-process). */
  simulatorScript: string;
  /** The floor proxy (bench/bare-proxy). */
  floorScript: string;
  /** Express and axios alone (bench/reference-proxy). */
  referenceScript: string;
  /** Where the gateway's third-party packages resolve from. */
  nodePath: string;
}

/**
 * The production build `npm start` runs (scripts/build-dist.ts), plus the benchmark's processes beside it: the
 * simulator, the floor and the reference run from JavaScript too, as the gateway does. Through tsx they paid for its loader and for
 * a name helper (`__name`) on every closure they make per request, on the two cores the gateway is measured on.
 * Third-party packages come from the repository's node_modules through NODE_PATH.
 */
export function buildGateway(root: string, outDir: string): BenchBuild {
  buildDist(root, outDir);
  const transpile = (relative: string): string => transpileFile(root, outDir, path.join(root, relative));
  for (const shared of ['bench/process-stats.ts', 'bench/proxy-child.ts']) transpile(shared);
  for (const file of fs.readdirSync(path.join(root, 'simulator'))) if (file.endsWith('.ts')) transpile(path.join('simulator', file));
  return {
    script: transpile('bench/gateway-process.ts'),
    simulatorScript: transpile('bench/simulator-process.ts'),
    floorScript: transpile('bench/bare-proxy.ts'),
    referenceScript: transpile('bench/reference-proxy.ts'),
    nodePath: path.join(root, 'node_modules'),
  };
}
