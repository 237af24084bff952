import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { upstreamStreamFraming } from '../../../core/sse/upstream-stream-framing';
import type { StreamFraming } from '../../../core/sse/wire-event';
import type { WireFormat } from '../../../core/unified/unified-request';

describe('upstreamStreamFraming', () => {
  const framed: Array<[string | undefined, WireFormat, StreamFraming]> = [
    ['text/event-stream', 'messages', 'sse'],
    ['text/event-stream; charset=utf-8', 'chat-completions', 'sse'],
    ['Text/Event-Stream; Charset=UTF-8', 'messages', 'sse'],
    [undefined, 'responses', 'sse'],
    ['text/event-stream', 'gemini', 'sse'],
    ['application/json; charset=UTF-8', 'gemini', 'json-array'],
  ];
  for (const [type, format, framing] of framed) {
    it(`${type ?? 'no content type'} from a ${format} upstream is ${framing}`, () => {
      expect(upstreamStreamFraming(type, format)).to.equal(framing);
    });
  }

  const refused: Array<[string, WireFormat]> = [
    ['text/html; charset=utf-8', 'messages'],
    ['application/json', 'chat-completions'],
    ['application/json', 'responses'],
    ['text/html', 'gemini'],
  ];
  for (const [type, format] of refused) {
    it(`${type} from a ${format} upstream is a 502 naming the type`, () => {
      let thrown: unknown;
      try {
        upstreamStreamFraming(type, format);
      } catch (error) {
        thrown = error;
      }
      expect(isGatewayError(thrown) && [thrown.status, thrown.message]).to.deep.equal([502, `upstream answered a stream request with ${type.split(';')[0]}, not a stream`]);
    });
  }
});
