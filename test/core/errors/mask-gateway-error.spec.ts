import { expect } from 'chai';
import { GatewayError } from '../../../core/errors/gateway-error';
import { createSecretMasker, maskGatewayError } from '../../../core/errors/mask-gateway-error';

describe('maskGatewayError', () => {
  const key = 'team-alpha-SECRET-0001';
  const mask = createSecretMasker([key]);

  it('is the error itself when no text a client sees holds a secret', () => {
    const error = new GatewayError('GW_UPSTREAM_ERROR', 'bad', { status: 400, param: 'temperature', upstreamCode: 'x' });
    expect(maskGatewayError(error, mask)).to.equal(error);
  });

  it('masks the message, param, upstream type and upstream code, keeping the rest', () => {
    const error = new GatewayError('GW_UPSTREAM_ERROR', `bad key ${key}`, { status: 400, param: key, upstreamType: key, upstreamCode: key, retryAfterMs: 5 });
    const masked = maskGatewayError(error, mask);
    expect(masked).to.include({ code: 'GW_UPSTREAM_ERROR', status: 400, message: 'bad key ...0001', param: '...0001', upstreamType: '...0001', upstreamCode: '...0001', retryAfterMs: 5 });
  });
});
