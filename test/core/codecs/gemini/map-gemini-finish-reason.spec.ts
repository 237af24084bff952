import { expect } from 'chai';
import { geminiTurnFailure, mapGeminiFinishReason } from '../../../../core/codecs/gemini/map-gemini-finish-reason';
import type { FinishReason } from '../../../../core/unified/unified-response';

describe('mapGeminiFinishReason', () => {
  const cases: Array<[string | undefined, boolean, FinishReason]> = [
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    [undefined, true, 'tool_calls'],
    ['MAX_TOKENS', false, 'length'],
    ['MAX_TOKENS', true, 'length'],
    ...['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION', 'LANGUAGE'].map(
      (r): [string, boolean, FinishReason] => [r, false, 'content_filter'],
    ),
    ...['OTHER', 'NO_IMAGE', 'IMAGE_OTHER', 'MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS', 'FINISH_REASON_UNSPECIFIED'].map(
      (r): [string, boolean, FinishReason] => [r, false, 'other'],
    ),
  ];
  for (const [reason, calls, expected] of cases) {
    it(`${String(reason)}${calls ? ' with calls' : ''} → ${expected}`, () => {
      expect(mapGeminiFinishReason(reason, calls)).to.equal(expected);
    });
  }

  describe('geminiTurnFailure', () => {
    for (const reason of ['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS', 'MISSING_THOUGHT_SIGNATURE', 'OTHER', 'FINISH_REASON_UNSPECIFIED']) {
      it(`${reason} is an upstream error, not an empty answer`, () => {
        const error = geminiTurnFailure(reason, reason === 'MALFORMED_FUNCTION_CALL' ? ' Malformed function call: print(default_api.shell(command=[ls ' : undefined);
        expect(error).to.include({ code: 'GW_UPSTREAM_ERROR', status: 502 });
        expect(error?.message).to.equal(
          reason === 'MALFORMED_FUNCTION_CALL'
            ? 'upstream Gemini ended the turn with MALFORMED_FUNCTION_CALL: Malformed function call: print(default_api.shell(command=[ls'
            : `upstream Gemini ended the turn with ${reason}`,
        );
      });
    }
    for (const reason of [undefined, 'STOP', 'MAX_TOKENS', 'SAFETY', 'LANGUAGE', 'NO_IMAGE', 'IMAGE_OTHER', 'SOMETHING_NEW']) {
      it(`${String(reason)} is no failure`, () => {
        expect(geminiTurnFailure(reason, 'words')).to.equal(undefined);
      });
    }
  });
});
