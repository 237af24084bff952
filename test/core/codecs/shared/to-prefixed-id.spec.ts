import { expect } from 'chai';
import { toPrefixedId } from '../../../../core/codecs/shared/to-prefixed-id';

describe('toPrefixedId', () => {
  const cases: Array<[string, string, string | number | undefined, string]> = [
    ['chatcmpl-', 'chatcmpl-abc', undefined, 'chatcmpl-abc'],
    ['chatcmpl-', 'msg_01XYZ', undefined, 'chatcmpl-01XYZ'],
    ['resp_', 'chatcmpl-A1b2', undefined, 'resp_A1b2'],
    ['fc_', 'call_Qm4n', undefined, 'fc_Qm4n'],
    ['fc_', 'toolu_01abc', undefined, 'fc_01abc'],
    ['msg_', 'resp_abc', 2, 'msg_abc_2'],
    ['resp_', 'weird id/with:chars', undefined, 'resp_weirdidwithchars'],
    ['resp_', '', undefined, 'resp_gateway'],
  ];
  for (const [prefix, id, suffix, expected] of cases) {
    it(`${prefix} + ${JSON.stringify(id)}${suffix === undefined ? '' : ` #${suffix}`} → ${expected}`, () => {
      expect(toPrefixedId(prefix, id, suffix)).to.equal(expected);
    });
  }
});
