import { expect } from 'chai';
import { parseToolCallArguments } from '../../../../core/codecs/shared/parse-tool-call-arguments';

describe('parseToolCallArguments', () => {
  it('parses a JSON object and treats empty text as {}, losing nothing', () => {
    const losses: string[] = [];
    const lost = () => losses.push('lost');
    expect(parseToolCallArguments('{"a":[1,2]}', lost)).to.deep.equal({ a: [1, 2] });
    expect(parseToolCallArguments('', lost)).to.deep.equal({});
    expect(parseToolCallArguments('  ', lost)).to.deep.equal({});
    expect(losses).to.deep.equal([]);
  });

  for (const text of ['{"path":"a.ts","content":"lorem ip', '[1]', '"s"', 'null']) {
    it(`sends ${text} (not a JSON object) as {} and reports the loss`, () => {
      let lost = 0;
      expect(parseToolCallArguments(text, () => (lost += 1))).to.deep.equal({});
      expect(lost).to.equal(1);
    });
  }
});
