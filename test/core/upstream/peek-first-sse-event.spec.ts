import { Readable } from 'node:stream';
import { expect } from 'chai';
import { peekFirstSseEvent } from '../../../core/upstream/peek-first-sse-event';

function answer(chunks: string[], fail?: Error) {
  const body = new Readable({ read() {} });
  let i = 0;
  const next = (): void => {
    if (i < chunks.length) {
      body.push(Buffer.from(chunks[i++]));
      setImmediate(next);
    } else if (fail) body.destroy(fail);
    else body.push(null);
  };
  setImmediate(next);
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, body };
}

async function text(body: Readable): Promise<string> {
  let out = '';
  for await (const chunk of body) out += (chunk as Buffer).toString('utf8');
  return out;
}

describe('peekFirstSseEvent', () => {
  it('finds the first event past comments and replays every byte, those read and the rest', async () => {
    const chunks = [': ping\n\nda', 'ta: {"a":1}\n', '\ndata: {"b":2}\n\n', 'data: [DONE]\n\n'];
    const peeked = await peekFirstSseEvent(answer(chunks));
    expect(peeked.first).to.deep.equal({ data: '{"a":1}' });
    expect(await text(peeked.response.body)).to.equal(chunks.join(''));
  });

  it('gives the event a body that ended before its blank line, and a body with no event back whole', async () => {
    const cut = await peekFirstSseEvent(answer(['event: error\ndata: {"error":{}}']));
    expect(cut.first).to.deep.equal({ event: 'error', data: '{"error":{}}' });
    const none = await peekFirstSseEvent(answer([': only a comment\n\n']));
    expect(none.first).to.equal(undefined);
    expect(await text(none.response.body)).to.equal(': only a comment\n\n');
  });

  it('rejects with the body error before an event, and passes a later one to the replay', async () => {
    const early = await peekFirstSseEvent(answer([': x\n\n'], new Error('reset'))).catch((error: Error) => error);
    expect(String(early)).to.include('reset');
    const late = await peekFirstSseEvent(answer(['data: 1\n\n', 'data: 2'], new Error('reset later')));
    expect(await text(late.response.body).catch((error: Error) => String(error))).to.include('reset later');
  });

  it('hands a silent stream over unjudged after waitMs, its bytes still whole (a model thinking without streaming)', async () => {
    const body = new Readable({ read() {} });
    body.push(Buffer.from('data: {"choices":[{"delta":{"role":"assistant"}}]}\n\n'));
    // Without waitMs this would wait for the next event, which comes only after the peek has resolved.
    const peeked = await peekFirstSseEvent({ status: 200, headers: {}, body }, { skip: () => true, waitMs: 50 });
    expect(peeked.first).to.equal(undefined);
    body.push(Buffer.from('data: {"choices":[{"delta":{"content":"late"}}]}\n\n'));
    body.push(null);
    expect(await text(peeked.response.body)).to.equal('data: {"choices":[{"delta":{"role":"assistant"}}]}\n\ndata: {"choices":[{"delta":{"content":"late"}}]}\n\n');
  });

  it('stops looking after 64 KB without an event, and destroying the replay destroys the body', async () => {
    const big = 'x'.repeat(70 * 1024);
    const source = answer([`: ${big}`, '\n\ndata: late\n\n']);
    const peeked = await peekFirstSseEvent(source);
    expect(peeked.first).to.equal(undefined);
    peeked.response.body.destroy();
    expect(source.body.destroyed).to.equal(true);
  });
});
