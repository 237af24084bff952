import { expect } from 'chai';
import { markSending, RELEASE_MIN_BYTES, releaseBody } from '../../../core/upstream/release-body';

/** A Buffer that owns its whole ArrayBuffer, as the body reader and `Buffer.from(json)` make them at this size. */
function ownedBody(bytes = RELEASE_MIN_BYTES): Buffer {
  const body = Buffer.alloc(bytes, 'a');
  expect(body.byteOffset).to.equal(0);
  expect(body.buffer.byteLength).to.equal(bytes);
  return body;
}

describe('releaseBody', () => {
  it('releases a large body that owns its memory: it reads as empty afterwards', () => {
    const body = ownedBody();
    expect(releaseBody(body)).to.equal(true);
    expect(body.length).to.equal(0);
    expect(body.buffer.byteLength).to.equal(0);
  });

  it('leaves a body below the threshold, and nothing at all alone', () => {
    const small = Buffer.alloc(RELEASE_MIN_BYTES - 1, 'a');
    expect(releaseBody(small)).to.equal(false);
    expect(small.length).to.equal(RELEASE_MIN_BYTES - 1);
    expect(releaseBody(undefined)).to.equal(false);
    expect(releaseBody(null)).to.equal(false);
  });

  it('leaves a view on memory that is not all its own (a slice, or a Buffer over a larger ArrayBuffer)', () => {
    const whole = ownedBody(RELEASE_MIN_BYTES * 2);
    const slice = whole.subarray(0, RELEASE_MIN_BYTES);
    expect(releaseBody(slice)).to.equal(false);
    const tail = whole.subarray(RELEASE_MIN_BYTES);
    expect(releaseBody(tail)).to.equal(false);
    expect(whole.length).to.equal(RELEASE_MIN_BYTES * 2);
    expect(slice[0]).to.equal(0x61);
  });

  it('leaves a body while a send is writing it, and releases it once every send is done', () => {
    const body = ownedBody();
    const first = markSending(body);
    const second = markSending(body);
    expect(releaseBody(body)).to.equal(false);
    first();
    first();
    expect(releaseBody(body), 'one send still writes').to.equal(false);
    second();
    expect(body.length).to.equal(RELEASE_MIN_BYTES);
    expect(releaseBody(body)).to.equal(true);
    expect(body.length).to.equal(0);
  });

  it('leaves every view of memory a send is writing: the mark is on the memory, not on the Buffer object', () => {
    const body = ownedBody();
    const done = markSending(body.subarray(0));
    expect(releaseBody(body)).to.equal(false);
    done();
    expect(releaseBody(body)).to.equal(true);
  });

  it('answers false for a body released already', () => {
    const body = ownedBody();
    expect(releaseBody(body)).to.equal(true);
    expect(releaseBody(body)).to.equal(false);
  });
});
