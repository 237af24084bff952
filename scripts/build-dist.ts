import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** What buildDist wrote. */
export interface DistBuild {
  outDir: string;
  /** Folder names under plugins/ that were built. */
  plugins: string[];
  /** The entry `npm start` runs. */
  cli: string;
}

const COMPILER_OPTIONS: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };

/**
 * The production build that `npm start` runs and the benchmark measures: core and the plugins transpiled to plain
 * CommonJS (what `tsc` emits; the tsconfig's isolatedModules makes per-file transpiling exact), laid out like the
 * repository, with the `@gateway/*` packages linked in `<outDir>/node_modules` to the built files. Third-party
 * packages resolve from the repository's node_modules (outDir's parent folders, or NODE_PATH for a build elsewhere).
 * Plain JavaScript spares the gateway tsx's loader, which costs ~40 MB of RSS and start-up time.
 */
export function buildDist(root: string, outDir: string, plugins: readonly string[] = listPlugins(root)): DistBuild {
  fs.rmSync(outDir, { recursive: true, force: true });
  transpileTree(root, outDir, path.join(root, 'core'));
  linkPackage(root, outDir, 'core');
  for (const plugin of plugins) {
    transpileTree(root, outDir, path.join(root, 'plugins', plugin, 'src'));
    linkPackage(root, outDir, path.join('plugins', plugin));
  }
  return { outDir, plugins: [...plugins], cli: path.join(outDir, 'core', 'cli.js') };
}

/**
 * buildDist into a folder beside `target`, then swapped in: a gateway already running from `target` (or starting at
 * that moment) never sees a half-written tree. What `npm run build` (and so `npm start`) does with dist/.
 */
export function replaceDist(root: string, target: string): DistBuild {
  const fresh = `${target}.building-${process.pid}`;
  const built = buildDist(root, fresh);
  const retired = `${target}.old-${process.pid}`;
  if (fs.existsSync(target)) fs.renameSync(target, retired);
  fs.renameSync(fresh, target);
  fs.rmSync(retired, { recursive: true, force: true });
  // The links inside are relative, so the moved tree resolves as built.
  return { ...built, outDir: target, cli: path.join(target, 'core', 'cli.js') };
}

/** The plugin packages of the repository: folders under plugins/ with a package.json. */
export function listPlugins(root: string): string[] {
  const dir = path.join(root, 'plugins');
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, 'package.json')))
    .map((entry) => entry.name)
    .sort();
}

/** One TypeScript file of `root` to its JavaScript at the same relative place under `outDir`. */
export function transpileFile(root: string, outDir: string, source: string): string {
  const { outputText } = ts.transpileModule(fs.readFileSync(source, 'utf8'), { compilerOptions: COMPILER_OPTIONS, fileName: source });
  const dest = path.join(outDir, path.relative(root, source)).replace(/\.ts$/, '.js');
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.writeFileSync(dest, outputText);
  return dest;
}

function transpileTree(root: string, outDir: string, dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) transpileTree(root, outDir, full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) transpileFile(root, outDir, full);
  }
}

/** The package's package.json with its entry pointing at the built file, linked under its name in node_modules. */
function linkPackage(root: string, outDir: string, dir: string): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8')) as { name: string; version?: string; main?: string };
  const main = (manifest.main ?? 'index.ts').replace(/\.ts$/, '.js');
  fs.writeFileSync(path.join(outDir, dir, 'package.json'), `${JSON.stringify({ name: manifest.name, version: manifest.version, private: true, main }, null, 2)}\n`);
  const link = path.join(outDir, 'node_modules', manifest.name);
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(path.relative(path.dirname(link), path.join(outDir, dir)), link, 'dir');
}
