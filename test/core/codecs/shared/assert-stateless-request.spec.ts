import { expect } from 'chai';
import { assertStatelessRequest } from '../../../../core/codecs/shared/assert-stateless-request';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';

function request(responses?: Record<string, unknown>): UnifiedRequest {
  return { model: 'm', system: [], messages: [], stream: false, extensions: responses ? { responses } : undefined };
}

describe('assertStatelessRequest', () => {
  it('passes requests that carry no upstream state', () => {
    expect(() => assertStatelessRequest(request())).not.to.throw();
    expect(() => assertStatelessRequest(request({ store: false, previous_response_id: null }))).not.to.throw();
  });

  for (const field of ['previous_response_id', 'conversation']) {
    it(`rejects ${field} with GW_INVALID_REQUEST naming it`, () => {
      try {
        assertStatelessRequest(request({ [field]: 'x' }));
        expect.fail('expected a GatewayError');
      } catch (e) {
        expect(isGatewayError(e) && [e.code, e.status, e.param]).to.deep.equal(['GW_INVALID_REQUEST', 400, field]);
        expect(isGatewayError(e) && e.message.startsWith(`${field}:`)).to.equal(true);
      }
    });
  }
});
