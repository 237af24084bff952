import { Readable } from 'node:stream';
import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { readUpstreamJson } from '../../../core/upstream/read-upstream-json';
import { rejection } from '../../helpers/rejection';

/** An upstream answer whose body arrives in the given chunks. */
function answer(...chunks: Array<string | Buffer>): { body: Readable; headers: Record<string, string> } {
  return { body: Readable.from(chunks.map((chunk) => Buffer.from(chunk))), headers: {} };
}

describe('readUpstreamJson', () => {
  it('parses a JSON body that arrives in pieces', async () => {
    expect(await readUpstreamJson(answer('{"a":', '[1,"é"]}'), 1024)).to.deep.equal({ a: [1, 'é'] });
  });

  it('decodes a long body that is not ASCII, split inside a character, as JSON.parse of its text would', async () => {
    const text = JSON.stringify({ content: 'café 😀 漢字 '.repeat(8000) });
    const bytes = Buffer.from(text);
    const cut = bytes.indexOf(Buffer.from('😀')) + 2;
    expect(await readUpstreamJson(answer(bytes.subarray(0, cut), bytes.subarray(cut)), bytes.length)).to.deep.equal(JSON.parse(text));
  });

  it('reads past a byte-order mark before the JSON, as the vendors\' SDKs do', async () => {
    expect(await readUpstreamJson(answer(Buffer.from([0xef, 0xbb, 0xbf]), '{"ok":true}'), 1024)).to.deep.equal({ ok: true });
  });

  it('masks the credentials the call sent wherever the body echoes them', async () => {
    const key = 'sk-test-0123456789abcdef';
    const json = await readUpstreamJson({ ...answer(`{"echo":"key ${key}"}`), credentials: [key] }, 1024);
    expect(json).to.deep.equal({ echo: `key sk-${'*'.repeat(key.length - 7)}cdef` });
  });

  it('answers GW_UPSTREAM_BAD_RESPONSE naming what was asked for a body that is not JSON', async () => {
    const error = await rejection(readUpstreamJson(answer('<html>busy</html>'), 1024, '/v1/images/generations'));
    expect(isGatewayError(error) && error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    expect((error as Error).message).to.equal('upstream answered /v1/images/generations with a body that is not JSON');
  });

  it('answers GW_UPSTREAM_BAD_RESPONSE for JSON nested deeper than 256 levels (the encoders overflowed on it), and reads 256', async () => {
    const deep = (levels: number): string => '{"a":'.repeat(levels) + '"[[[["' + '}'.repeat(levels);
    expect(await readUpstreamJson(answer(deep(256)), 1 << 20)).to.have.property('a');
    const error = await rejection(readUpstreamJson(answer(deep(5000)), 1 << 20, '/v1/messages'));
    expect(isGatewayError(error) && error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    expect((error as Error).message).to.equal('upstream answered /v1/messages with JSON nested deeper than 256 levels of arrays and objects');
  });

  it('says only that the body is not JSON when nothing is named', async () => {
    const error = await rejection(readUpstreamJson(answer(''), 1024));
    expect((error as Error).message).to.equal('upstream answered a body that is not JSON');
  });

  it('stops at the limit with GW_UPSTREAM_BAD_RESPONSE', async () => {
    const error = await rejection(readUpstreamJson(answer('{"a":"', 'x'.repeat(2048), '"}'), 1024));
    expect(isGatewayError(error) && error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    expect((error as Error).message).to.include('1024-byte limit');
  });
});
