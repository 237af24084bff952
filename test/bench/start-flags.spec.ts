import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { productionNodeFlags } from '../../bench/start-flags';

describe('productionNodeFlags (bench)', () => {
  it("takes the --max-… V8 flags of the repository's start script", () => {
    const start = (JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    expect(productionNodeFlags(path.join(__dirname, '../..'))).to.deep.equal(start.split(' ').filter((t) => t.startsWith('--max-')));
  });

  it('takes the --name=number options before the script, none when the script has none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flags-'));
    const write = (start: string) => fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { start } }));
    write('node --max-semi-space-size=8 --expose-gc --heap-growing-percent=20 --import tsx core/cli.ts --max-x --port=8080');
    expect(productionNodeFlags(dir)).to.deep.equal(['--max-semi-space-size=8', '--heap-growing-percent=20']);
    write('exec node --max-semi-space-size=8 dist/core/cli.js');
    expect(productionNodeFlags(dir)).to.deep.equal(['--max-semi-space-size=8']);
    write('node -r ./x.js --max-old-space-size=512 core/cli.js');
    expect(productionNodeFlags(dir)).to.deep.equal(['--max-old-space-size=512']);
    write('node core/cli.js --max-old-space-size=512');
    expect(productionNodeFlags(dir)).to.deep.equal([]);
    write('tsx core/cli.ts --max-old-space-size=512');
    expect(productionNodeFlags(dir)).to.deep.equal([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
