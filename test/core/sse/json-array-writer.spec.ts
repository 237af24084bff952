import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { createJsonArrayWriter } from '../../../core/sse/json-array-writer';
import { FIXTURES_DIR } from '../../helpers/fixtures';

describe('createJsonArrayWriter', () => {
  it('writes [ before the first element, a separator before the others and ] at the end', () => {
    const writer = createJsonArrayWriter();
    expect(writer.element('{"a":1}')).to.equal('[{"a":1}');
    expect(writer.element('{"b":2}')).to.equal(',\r\n{"b":2}');
    expect(writer.close()).to.equal(']');
  });

  it('writes [] when no element was written', () => {
    expect(createJsonArrayWriter().close()).to.equal('[]');
  });

  it('produces a body JSON.parse reads back as the fixture array', () => {
    const elements = JSON.parse(readFileSync(FIXTURES_DIR + '/gemini/stream-array.json', 'utf8')) as unknown[];
    const writer = createJsonArrayWriter();
    const body = elements.map((e) => writer.element(JSON.stringify(e))).join('') + writer.close();
    expect(JSON.parse(body)).to.deep.equal(elements);
  });
});
