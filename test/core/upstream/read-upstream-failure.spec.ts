import { Readable } from 'node:stream';
import { expect } from 'chai';
import { readUpstreamFailure } from '../../../core/upstream/read-upstream-failure';

describe('readUpstreamFailure', () => {
  it('masks the credentials the call sent in the text and JSON every classifier reads (a plugin\'s own included)', async () => {
    const token = 'tenant-1122334455667788';
    const body = JSON.stringify({ error: { message: `Invalid token provided: Bearer ${token}` } });
    const failure = await readUpstreamFailure({ status: 401, headers: {}, body: Readable.from([Buffer.from(body)]), credentials: [token] });
    expect(failure.text).not.to.include(token);
    expect(failure.json).to.deep.equal({ error: { message: 'Invalid token provided: Bearer ...7788' } });
  });

  it('reads an error body after a byte-order mark as JSON, its code kept for classification', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"error":{"code":"model_not_found"}}')]);
    const failure = await readUpstreamFailure({ status: 404, headers: {}, body: Readable.from([body]) });
    expect(failure.json).to.deep.equal({ error: { code: 'model_not_found' } });
  });
});
