import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The file in a build that records the stamps it was built with. */
export const SOURCE_STAMP_FILE = 'source-stamp.json';

/** What a build records: the stamp of its sources, and of the builder that made it. */
export interface BuildStamps {
  sources: string;
  builder: string;
}

/** Folders of a package that are not part of what runs. */
const NOT_BUILT = new Set(['test', 'node_modules', 'dist']);

/** The same order under every locale (`localeCompare` would not give it: a stamp must not depend on LANG). */
function byName(a: fs.Dirent, b: fs.Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Entries the build skips: dotfiles (editor locks, .DS_Store) and anything that is neither a file nor a folder. */
function entriesOf(dir: string): fs.Dirent[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.') && (entry.isFile() || entry.isDirectory()))
    .sort(byName);
}

/** The folders the build transpiles: core and each package in plugins/. */
export function buildSourceDirs(root: string): string[] {
  const plugins = path.join(root, 'plugins');
  const dirs = [path.join(root, 'core')];
  if (!fs.existsSync(plugins)) return dirs;
  for (const entry of entriesOf(plugins)) {
    if (entry.isDirectory() && fs.existsSync(path.join(plugins, entry.name, 'package.json'))) dirs.push(path.join(plugins, entry.name));
  }
  return dirs;
}

/** Every file below `dir` that the build reads (TypeScript sources and package.json), skipping tests and dependencies. */
export function buildInputs(dir: string): string[] {
  const files: string[] = [];
  for (const entry of entriesOf(dir)) {
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

/** The stamps a build recorded, or undefined when it has none. */
export function readBuildStamps(buildDir: string): Partial<BuildStamps> | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(buildDir, SOURCE_STAMP_FILE), 'utf8')) as Partial<BuildStamps>;
  } catch {
    return undefined;
  }
}

/**
 * Why a build in `buildDir` must not run: it was built from sources other than those in `root`. Undefined when it
 * may: it matches them, or they are not there (a deployment that ships the build alone).
 */
export function staleBuildReason(buildDir: string, root: string): string | undefined {
  if (!fs.existsSync(path.join(root, 'core', 'cli.ts'))) return undefined;
  if (readBuildStamps(buildDir)?.sources === sourceStamp(root)) return undefined;
  return `${buildDir} was not built from the sources in ${root}: run \`npm run build\` (\`npm start\` does it first, unless npm scripts are ignored)`;
}
