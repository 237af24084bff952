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

  it("reads an error answered as an event stream as its first event's data, which classifiers quote", async () => {
    const body = 'event: error\r\ndata: {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}\r\n\r\n';
    const failure = await readUpstreamFailure({ status: 400, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body: Readable.from([Buffer.from(body)]) });
    expect(failure.json).to.deep.equal({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } });
    expect(failure.text).to.equal(JSON.stringify(failure.json));
    // Framing with no event in it stays the text it was.
    const empty = await readUpstreamFailure({ status: 502, headers: { 'content-type': 'text/event-stream' }, body: Readable.from([Buffer.from(': ping\n\n')]) });
    expect(empty.text).to.equal(': ping\n\n');
  });
});
