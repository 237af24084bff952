import { expect } from 'chai';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import { parseToolCallArguments } from '../../../../core/codecs/shared/parse-tool-call-arguments';

describe('parseToolCallArguments', () => {
  it('parses a JSON object and treats empty text as {}', () => {
    expect(parseToolCallArguments('{"a":[1,2]}', 'p')).to.deep.equal({ a: [1, 2] });
    expect(parseToolCallArguments('', 'p')).to.deep.equal({});
    expect(parseToolCallArguments('  ', 'p')).to.deep.equal({});
  });

  for (const [text, detail] of [['{"a":', 'are not valid JSON'], ['[1]', 'must be a JSON object'], ['"s"', 'must be a JSON object'], ['null', 'must be a JSON object']]) {
    it(`rejects ${text} with GW_INVALID_REQUEST naming the field`, () => {
      let caught: unknown;
      try {
        parseToolCallArguments(text, 'messages[1].content[0].arguments');
      } catch (e) {
        caught = e;
      }
      expect(isGatewayError(caught) && [caught.code, caught.param]).to.deep.equal(['GW_INVALID_REQUEST', 'messages[1].content[0].arguments']);
      expect(isGatewayError(caught) && caught.message).to.equal(`messages[1].content[0].arguments: arguments ${detail}`);
    });
  }
});
