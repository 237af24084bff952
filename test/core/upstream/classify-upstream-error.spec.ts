import { inspect } from 'node:util';
import { AxiosError } from 'axios';
import { expect } from 'chai';
import { GatewayError } from '../../../core/errors/gateway-error';
import { classifyUpstreamError } from '../../../core/upstream/classify-upstream-error';

const SECRET = 'sk-test-abcdefghijklmnopqrstuvwxyz0123456789';

function systemError(code: string, message = `connect ${code} 10.0.0.1:443`): Error {
  return Object.assign(new Error(message), { code, syscall: 'connect' });
}

describe('classifyUpstreamError', () => {
  const cases: Array<[string, unknown, 'request' | 'body', string, string]> = [
    ['refused', systemError('ECONNREFUSED'), 'request', 'GW_UPSTREAM_UNREACHABLE', 'upstream api.example:443 unreachable (ECONNREFUSED)'],
    ['dns', systemError('ENOTFOUND'), 'request', 'GW_UPSTREAM_UNREACHABLE', 'upstream api.example:443 unreachable (ENOTFOUND)'],
    ['socket hang up', systemError('ECONNRESET', 'socket hang up'), 'request', 'GW_UPSTREAM_UNREACHABLE', 'upstream api.example:443 unreachable (ECONNRESET)'],
    ['OS timeout', systemError('ETIMEDOUT'), 'request', 'GW_UPSTREAM_TIMEOUT', 'upstream api.example:443 timed out (ETIMEDOUT)'],
    ['bad header built by us', systemError('ERR_INVALID_CHAR'), 'request', 'GW_INTERNAL', 'invalid upstream request to api.example:443 (ERR_INVALID_CHAR)'],
    ['no code at all', new Error('weird'), 'request', 'GW_UPSTREAM_UNREACHABLE', 'upstream api.example:443 unreachable (unknown error)'],
    ['reset mid-body', systemError('ECONNRESET', 'aborted'), 'body', 'GW_UPSTREAM_UNREACHABLE', 'upstream api.example:443 connection lost while reading the body (ECONNRESET)'],
    ['corrupt gzip', systemError('Z_DATA_ERROR', 'incorrect header check'), 'body', 'GW_UPSTREAM_BAD_RESPONSE', 'upstream api.example:443 body could not be decoded (Z_DATA_ERROR)'],
  ];
  for (const [name, err, phase, code, message] of cases) {
    it(`${name} (${phase}) -> ${code}`, () => {
      const mapped = classifyUpstreamError(err, 'api.example:443', phase);
      expect(mapped.code).to.equal(code);
      expect(mapped.message).to.equal(message);
    });
  }

  it('reads the Node code under an AxiosError and keeps neither its config nor its message', () => {
    const config = { headers: { authorization: `Bearer ${SECRET}` }, url: `https://api.example/v1?key=${SECRET}` };
    const wrapped = Object.assign(AxiosError.from(systemError('ECONNREFUSED', `connect ECONNREFUSED ${SECRET}`), 'ERR_NETWORK'), { config });
    const mapped = classifyUpstreamError(wrapped, 'api.example:443', 'request');
    expect(mapped.code).to.equal('GW_UPSTREAM_UNREACHABLE');
    expect(mapped.message).to.contain('ECONNREFUSED');
    expect(inspect(mapped, { depth: 10, showHidden: true }) + JSON.stringify(mapped)).not.to.contain(SECRET);
  });

  it('passes GatewayErrors through unchanged', () => {
    const original = new GatewayError('GW_UPSTREAM_TIMEOUT', 'upstream idle timeout');
    expect(classifyUpstreamError(original, 'api.example:443', 'body')).to.equal(original);
  });
});
