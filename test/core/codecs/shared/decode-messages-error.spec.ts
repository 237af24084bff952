import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { decodeMessagesError } from '../../../../core/codecs/shared/decode-messages-error';
import { FIXTURES_DIR } from '../../../helpers/fixtures';

const fixture = (name: string): unknown => JSON.parse(readFileSync(`${FIXTURES_DIR}/anthropic-messages/${name}`, 'utf8'));

describe('decodeMessagesError', () => {
  it('turns an overload (529 or overloaded_error) into GW_UPSTREAM_OVERLOADED with status 503', () => {
    for (const status of [529, undefined]) {
      const e = decodeMessagesError(fixture('error-529.json'), status);
      expect([e.code, e.status, e.upstreamType, e.message]).to.deep.equal(['GW_UPSTREAM_OVERLOADED', 503, 'overloaded_error', 'Overloaded']);
    }
  });

  it('keeps the HTTP status and the upstream type and message', () => {
    const e = decodeMessagesError(fixture('error-400.json'), 400);
    expect([e.code, e.status, e.upstreamType, e.message]).to.deep.equal(['GW_UPSTREAM_ERROR', 400, 'invalid_request_error', 'max_tokens: Field required']);
  });

  it('derives the status from the error type when there is none (mid-stream)', () => {
    const statuses: Record<string, number> = {
      invalid_request_error: 400, authentication_error: 401, billing_error: 402, permission_error: 403, not_found_error: 404,
      request_too_large: 413, rate_limit_error: 429, api_error: 500, timeout_error: 504,
    };
    for (const [type, status] of Object.entries(statuses)) {
      expect(decodeMessagesError({ type: 'error', error: { type, message: 'm' } }).status, type).to.equal(status);
    }
    expect(decodeMessagesError({ type: 'error', error: { type: 'brand_new_error', message: 'm' } }).status).to.equal(502);
  });

  it('masks key-like secrets in the upstream message', () => {
    const e = decodeMessagesError({ type: 'error', error: { type: 'authentication_error', message: 'bad key sk-ant-api03-abcdefghijklmnopqrstuvwxyz1234' } }, 401);
    expect(e.message).to.not.contain('abcdefghijklmnop');
    expect(e.message).to.contain('...1234');
  });
});
