import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The file in a build that records the stamp of the sources it was built from. */
export const SOURCE_STAMP_FILE = 'source-stamp.json';

/** Folders of a package that are not part of what runs. */
const NOT_BUILT = new Set(['test', 'node_modules', 'dist']);

/** The folders the build transpiles: core and each package in plugins/. */
export function buildSourceDirs(root: string): string[] {
  const plugins = path.join(root, 'plugins');
  const dirs = [path.join(root, 'core')];
  for (const entry of fs.readdirSync(plugins, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory() && fs.existsSync(path.join(plugins, entry.name, 'package.json'))) dirs.push(path.join(plugins, entry.name));
  }
  return dirs;
}

/** Every file below `dir` that the build reads (TypeScript sources and package.json), skipping tests and dependencies. */
export function buildInputs(dir: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!NOT_BUILT.has(entry.name)) files.push(...buildInputs(full));
    } else if ((entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) || entry.name === 'package.json') {
      files.push(full);
    }
  }
  return files;
}

/** A hash of the build's inputs (names and contents): equal stamps, equal builds. Start-up only (synchronous). */
export function sourceStamp(root: string): string {
  const hash = createHash('sha256');
  for (const dir of buildSourceDirs(root)) {
    for (const file of buildInputs(dir)) {
      hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

/** The stamp a build recorded, or undefined when it has none. */
export function readBuildStamp(buildDir: string): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(buildDir, SOURCE_STAMP_FILE), 'utf8')) as { stamp?: string }).stamp;
  } catch {
    return undefined;
  }
}

/**
 * Why a build in `buildDir` must not run: its sources (in `root`) have changed since it was built. Undefined when it
 * may: it is current, or the sources are not there (a deployment that ships the build alone).
 */
export function staleBuildReason(buildDir: string, root: string): string | undefined {
  if (!fs.existsSync(path.join(root, 'core', 'cli.ts'))) return undefined;
  const built = readBuildStamp(buildDir);
  if (built === sourceStamp(root)) return undefined;
  return `${buildDir} is older than the sources in ${root}: run \`npm run build\` (\`npm start\` does it first, unless npm scripts are ignored)`;
}
