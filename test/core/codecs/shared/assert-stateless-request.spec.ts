import { expect } from 'chai';
import { assertStatelessRequest } from '../../../../core/codecs/shared/assert-stateless-request';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';

function request(responses?: Record<string, unknown>, messages?: Record<string, unknown>): UnifiedRequest {
  const extensions = responses || messages ? { ...(responses ? { responses } : {}), ...(messages ? { messages } : {}) } : undefined;
  return { model: 'm', system: [], messages: [], stream: false, extensions };
}

function thrown(run: () => void): unknown {
  try {
    run();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('assertStatelessRequest', () => {
  it('passes requests that carry no upstream state', () => {
    expect(() => assertStatelessRequest(request(), 'gemini')).not.to.throw();
    expect(() => assertStatelessRequest(request({ store: false, previous_response_id: null }), 'gemini')).not.to.throw();
  });

  for (const field of ['previous_response_id', 'conversation']) {
    it(`rejects ${field} with GW_INVALID_REQUEST naming it`, () => {
      try {
        assertStatelessRequest(request({ [field]: 'x' }), 'chat-completions');
        expect.fail('expected a GatewayError');
      } catch (e) {
        expect(isGatewayError(e) && [e.code, e.status, e.param]).to.deep.equal(['GW_INVALID_REQUEST', 400, field]);
        expect(isGatewayError(e) && e.message.startsWith(`${field}:`)).to.equal(true);
      }
    });
  }

  it('lets a Responses upstream hold its own state', () => {
    expect(() => assertStatelessRequest(request({ previous_response_id: 'resp_1' }), 'responses')).not.to.throw();
  });

  it('answers a message thread continued on another format as a thread it does not hold (thread_not_found), which the Anthropic SDK replays', () => {
    const continued = request(undefined, { thread: { type: 'continue', previous_message_id: 'msg_1' } });
    const error = thrown(() => assertStatelessRequest(continued, 'gemini'));
    expect(isGatewayError(error) && [error.status, error.param, error.details]).to.deep.equal([404, 'thread', { error_code: 'thread_not_found' }]);
    expect(() => assertStatelessRequest(continued, 'messages')).not.to.throw();
    expect(() => assertStatelessRequest(request(undefined, { thread: { type: 'create' } }), 'chat-completions')).not.to.throw();
  });
});
