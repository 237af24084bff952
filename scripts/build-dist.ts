import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type ts from 'typescript';
import { buildInputs, buildSourceDirs, readBuildStamps, sourceStamp, SOURCE_STAMP_FILE, type BuildStamps } from '../core/source-stamp';

/** What buildDist wrote. */
export interface DistBuild {
  outDir: string;
  /** Folder names under plugins/ that were built. */
  plugins: string[];
  /** The entry `npm start` runs. */
  cli: string;
}

/** Loaded only when something is transpiled: a build that is current starts without TypeScript's compiler. */
let typescript: typeof ts | undefined;
function compiler(): typeof ts {
  typescript ??= require('typescript') as typeof ts;
  return typescript;
}

/**
 * The production build that `npm start` runs and the benchmark measures: core and every package in plugins/
 * transpiled to plain CommonJS (what `tsc` emits; the tsconfig's isolatedModules makes per-file transpiling exact),
 * laid out like the repository, with the `@gateway/*` packages linked in `<outDir>/node_modules` to the built files,
 * and the stamp of the sources it was built from. Third-party packages resolve from the repository's node_modules
 * (outDir's parent folders, or NODE_PATH for a build elsewhere). Plain JavaScript spares the gateway tsx's loader,
 * which costs ~40 MB of RSS and start-up time. A syntax error stops the build, naming the file and line. The stamps
 * default to the sources' as they are when the build starts.
 */
export function buildDist(root: string, outDir: string, stamps: BuildStamps = currentStamps(root)): DistBuild {
  fs.rmSync(outDir, { recursive: true, force: true });
  const dirs = buildSourceDirs(root);
  for (const dir of dirs) {
    for (const file of buildInputs(dir)) {
      if (file.endsWith('.ts')) transpileFile(root, outDir, file);
    }
    linkPackage(root, outDir, path.relative(root, dir));
  }
  fs.writeFileSync(path.join(outDir, SOURCE_STAMP_FILE), `${JSON.stringify(stamps)}\n`);
  return distIn(outDir, dirs);
}

/**
 * What `npm run build` (and so `npm start`) does with dist/: nothing when it was built from the sources as they are,
 * by this builder (a read-only install with a current build starts), else buildDist beside it, swapped in, so a
 * gateway running from dist/ or starting at that moment never sees a half-written tree.
 */
export function replaceDist(root: string, target: string): DistBuild & { rebuilt: boolean } {
  // Stamped before transpiling: a file saved during the build leaves the stamp older than dist/, never newer.
  const stamps = currentStamps(root);
  const built = readBuildStamps(target);
  const dist = distIn(target, buildSourceDirs(root));
  if (fs.existsSync(dist.cli) && built?.sources === stamps.sources && built.builder === stamps.builder) return { ...dist, rebuilt: false };
  const fresh = `${target}.building-${process.pid}`;
  const retired = `${target}.old-${process.pid}`;
  try {
    buildDist(root, fresh, stamps);
    if (fs.existsSync(target)) fs.renameSync(target, retired);
    // The links inside are relative, so the moved tree resolves as built.
    fs.renameSync(fresh, target);
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true });
    fs.rmSync(retired, { recursive: true, force: true });
  }
  return { ...dist, rebuilt: true };
}

/** The build in `outDir` of the given source folders (core first, then the plugins). */
function distIn(outDir: string, sourceDirs: string[]): DistBuild {
  return { outDir, plugins: sourceDirs.slice(1).map((dir) => path.basename(dir)), cli: path.join(outDir, 'core', 'cli.js') };
}

function currentStamps(root: string): BuildStamps {
  return { sources: sourceStamp(root), builder: builderStamp() };
}

/** One TypeScript file of `root` to its JavaScript at the same relative place under `outDir`. */
export function transpileFile(root: string, outDir: string, source: string): string {
  const ts = compiler();
  const compilerOptions: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
  const { outputText, diagnostics } = ts.transpileModule(fs.readFileSync(source, 'utf8'), { compilerOptions, fileName: source, reportDiagnostics: true });
  // transpileModule recovers from syntax errors and emits JavaScript that means something else: refuse it.
  const problem = diagnostics?.find((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  if (problem) {
    const at = problem.file && problem.start !== undefined ? problem.file.getLineAndCharacterOfPosition(problem.start) : undefined;
    const where = at ? `${path.relative(root, source)}:${at.line + 1}:${at.character + 1}` : path.relative(root, source);
    throw new Error(`build stopped: ${where}: ${ts.flattenDiagnosticMessageText(problem.messageText, '\n')}`);
  }
  const dest = path.join(outDir, path.relative(root, source)).replace(/\.ts$/, '.js');
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.writeFileSync(dest, outputText);
  return dest;
}

/** The package's package.json with its entry pointing at the built file, linked under its name in node_modules. */
function linkPackage(root: string, outDir: string, dir: string): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8')) as { name: string; version?: string; main?: string };
  const main = (manifest.main ?? 'index.ts').replace(/\.ts$/, '.js');
  fs.mkdirSync(path.join(outDir, dir), { recursive: true });
  fs.writeFileSync(path.join(outDir, dir, 'package.json'), `${JSON.stringify({ name: manifest.name, version: manifest.version, private: true, main }, null, 2)}\n`);
  const link = path.join(outDir, 'node_modules', manifest.name);
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(path.relative(path.dirname(link), path.join(outDir, dir)), link, 'dir');
}

/** This file and the TypeScript version: a change to either (a pull, an `npm update`) makes the next build run. */
function builderStamp(): string {
  const version = (JSON.parse(fs.readFileSync(require.resolve('typescript/package.json'), 'utf8')) as { version: string }).version;
  return createHash('sha256').update(fs.readFileSync(__filename)).update('\0').update(version).digest('hex');
}
