import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { SOURCE_STAMP_FILE, sourceStamp, staleBuildReason } from '../../core/source-stamp';
import { buildDist, replaceDist } from '../../scripts/build-dist';

const ROOT = path.resolve(__dirname, '../..');

/** A repository in miniature: core, a plugin with src/, one whose entry sits at its root, tests to leave out. */
function fakeRepository(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-dist-'));
  const write = (file: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write('core/package.json', JSON.stringify({ name: '@gateway/core', main: 'index.ts' }));
  write('core/index.ts', "export const answer: number = 42;\nexport type Unused = string;\n");
  write('core/cli.ts', "import { answer } from './index';\nconsole.log(answer);\n");
  write('plugins/alpha/package.json', JSON.stringify({ name: '@gateway/plugin-alpha', main: 'src/index.ts' }));
  write('plugins/alpha/src/index.ts', "import { answer } from '@gateway/core';\nexport default { name: 'alpha', answer } as const;\n");
  write('plugins/alpha/test/alpha.spec.ts', 'describe("alpha", () => undefined);\n');
  write('plugins/flat/package.json', JSON.stringify({ name: '@gateway/plugin-flat', main: 'index.ts' }));
  write('plugins/flat/index.ts', "export default 'flat';\n");
  write('plugins/notes/README.md', 'not a package\n');
  return root;
}

describe('buildDist / replaceDist (scripts/build-dist.ts)', () => {
  it('transpiles core and every plugin package, leaves tests out, and links the packages to the built files', () => {
    const root = fakeRepository();
    const build = buildDist(root, path.join(root, 'dist'));
    expect(build.plugins).to.deep.equal(['alpha', 'flat']);
    expect(fs.existsSync(path.join(root, 'dist/plugins/alpha/test'))).to.equal(false);
    // In a plain node process: this one may have the gateway's own @gateway/* resolution installed.
    const probe = `const at = { paths: [${JSON.stringify(path.join(root, 'dist/core'))}] };
      console.log(JSON.stringify({ alpha: require(require.resolve('@gateway/plugin-alpha', at)).default.answer, flat: require.resolve('@gateway/plugin-flat', at) }));`;
    const run = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(JSON.parse(run.stdout)).to.deep.equal({ alpha: 42, flat: fs.realpathSync(path.join(root, 'dist/plugins/flat/index.js')) });
  });

  it('stops on a syntax error, naming the file and line, where transpiling alone would emit other JavaScript', () => {
    const root = fakeRepository();
    fs.writeFileSync(path.join(root, 'plugins/flat/index.ts'), 'export function f(x: number) {\n  if (x > 1) {\n    return 1;\n  return 2;\n}\n');
    expect(() => replaceDist(root, path.join(root, 'dist'))).to.throw(/^build stopped: plugins\/flat\/index\.ts:\d+:\d+: '}' expected\./);
    // Nothing half-built is left behind.
    expect(fs.readdirSync(root).filter((name) => name.startsWith('dist'))).to.deep.equal([]);
  });

  it('rebuilds only when the sources changed, and then replaces the previous build whole', () => {
    const root = fakeRepository();
    const target = path.join(root, 'dist');
    expect(replaceDist(root, target).rebuilt).to.equal(true);
    fs.writeFileSync(path.join(target, 'core', 'leftover.js'), '');
    expect(replaceDist(root, target).rebuilt).to.equal(false);
    expect(fs.existsSync(path.join(target, 'core', 'leftover.js'))).to.equal(true);

    fs.writeFileSync(path.join(root, 'core/index.ts'), 'export const answer: number = 43;\n');
    expect(staleBuildReason(target, root)).to.match(/was not built from the sources in .*run `npm run build`/);
    expect(replaceDist(root, target).rebuilt).to.equal(true);
    expect(fs.existsSync(path.join(target, 'core', 'leftover.js'))).to.equal(false);
    expect(staleBuildReason(target, root)).to.equal(undefined);
    expect(fs.readdirSync(root).filter((name) => name.startsWith('dist'))).to.deep.equal(['dist']);
  });

  it('rebuilds when the builder changed (a pull or an npm update), even with the sources as they were', () => {
    const root = fakeRepository();
    const target = path.join(root, 'dist');
    replaceDist(root, target);
    const stampFile = path.join(target, SOURCE_STAMP_FILE);
    const recorded = JSON.parse(fs.readFileSync(stampFile, 'utf8')) as { sources: string; builder: string };
    expect(recorded.sources).to.equal(sourceStamp(root));
    fs.writeFileSync(stampFile, JSON.stringify({ ...recorded, builder: 'an older builder' }));
    expect(replaceDist(root, target).rebuilt).to.equal(true);
    expect(replaceDist(root, target).rebuilt).to.equal(false);
  });

  it('stamps the same under every locale (Czech sorts "ch" after "h")', () => {
    const root = fakeRepository();
    for (const name of ['chat', 'hooks', 'Zeta', 'alpha']) fs.writeFileSync(path.join(root, `core/${name}.ts`), `export const ${name.toLowerCase()} = 1;\n`);
    const probe = `console.log(require(${JSON.stringify(path.join(ROOT, 'core/source-stamp.ts'))}).sourceStamp(${JSON.stringify(root)}))`;
    const stampUnder = (locale: string): string =>
      spawnSync(process.execPath, ['--import', 'tsx', '-e', probe], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', LANG: locale, LC_ALL: locale } }).stdout.trim();
    expect(stampUnder('cs_CZ.UTF-8')).to.equal(sourceStamp(root)).and.to.equal(stampUnder('C'));
  });

  it('passes over dotfiles and dangling links in the sources, and a checkout without plugins/', () => {
    const root = fakeRepository();
    fs.symlinkSync(path.join(root, 'core', 'gone.ts'), path.join(root, 'core', '.#index.ts'));
    fs.writeFileSync(path.join(root, 'core', '.DS_Store'), '');
    expect(buildDist(root, path.join(root, 'dist')).plugins).to.deep.equal(['alpha', 'flat']);
    fs.rmSync(path.join(root, 'plugins'), { recursive: true });
    expect(buildDist(root, path.join(root, 'dist')).plugins).to.deep.equal([]);
    expect(staleBuildReason(path.join(root, 'dist'), root)).to.equal(undefined);
  });

  it('lets a build run where its sources are not shipped beside it', () => {
    const root = fakeRepository();
    const build = buildDist(root, path.join(root, 'out', 'dist'));
    expect(staleBuildReason(build.outDir, path.join(root, 'out'))).to.equal(undefined);
  });
});
