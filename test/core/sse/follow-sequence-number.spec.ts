import { expect } from 'chai';
import { createSequenceFollower } from '../../../core/sse/follow-sequence-number';
import { fixtureBytes } from '../../helpers/fixtures';

const STREAM = fixtureBytes('openai-responses/stream-basic.sse');
const LAST = Math.max(...[...STREAM.toString('utf8').matchAll(/"sequence_number":(\d+)/g)].map((match) => Number(match[1])));

describe('createSequenceFollower', () => {
  it('starts at 0', () => {
    expect(createSequenceFollower().next).to.equal(0);
  });

  it('is one past the highest number of a Responses stream, however its bytes are cut into chunks', () => {
    for (let size = 1; size <= 64; size += 1) {
      const follower = createSequenceFollower();
      for (let offset = 0; offset < STREAM.length; offset += size) follower.push(STREAM.subarray(offset, offset + size));
      expect(follower.next, `chunks of ${size} bytes`).to.equal(LAST + 1);
    }
  });

  it('is not fooled by the words in a text delta, whose quotes are escaped', () => {
    const follower = createSequenceFollower();
    follower.push(Buffer.from('data: {"type":"response.output_text.delta","sequence_number":4,"delta":"\\"sequence_number\\": 99"}\n\n'));
    expect(follower.next).to.equal(5);
  });
});
