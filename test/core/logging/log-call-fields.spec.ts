import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '../../..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'test' ? [] : sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('log calls', () => {
  it('pass no field named `message`: winston appends it to the line\'s message, which is then no longer constant', () => {
    const files = [...sources(path.join(ROOT, 'core')), ...fs.readdirSync(path.join(ROOT, 'plugins')).flatMap((plugin) => sources(path.join(ROOT, 'plugins', plugin, 'src')))];
    const offending = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\blog\.(?:error|warn|info|http|verbose|debug|silly)\(.*[{,]\s*message:/.test(line) ? [`${path.relative(ROOT, file)}:${i + 1}`] : [])),
    );
    expect(offending).to.deep.equal([]);
  });
});
