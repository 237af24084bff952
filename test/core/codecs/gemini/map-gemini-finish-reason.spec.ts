import { expect } from 'chai';
import { mapGeminiFinishReason } from '../../../../core/codecs/gemini/map-gemini-finish-reason';
import type { FinishReason } from '../../../../core/unified/unified-response';

describe('mapGeminiFinishReason', () => {
  const cases: Array<[string | undefined, boolean, FinishReason]> = [
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    [undefined, true, 'tool_calls'],
    ['MAX_TOKENS', false, 'length'],
    ['MAX_TOKENS', true, 'length'],
    ...['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION'].map(
      (r): [string, boolean, FinishReason] => [r, false, 'content_filter'],
    ),
    ...['OTHER', 'LANGUAGE', 'NO_IMAGE', 'IMAGE_OTHER', 'MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS', 'FINISH_REASON_UNSPECIFIED'].map(
      (r): [string, boolean, FinishReason] => [r, false, 'other'],
    ),
  ];
  for (const [reason, calls, expected] of cases) {
    it(`${String(reason)}${calls ? ' with calls' : ''} → ${expected}`, () => {
      expect(mapGeminiFinishReason(reason, calls)).to.equal(expected);
    });
  }
});
