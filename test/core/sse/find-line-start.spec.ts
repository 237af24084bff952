import { expect } from 'chai';
import { compileLineStarts, createLineStartFinder } from '../../../core/sse/find-line-start';

const STARTS = compileLineStarts(['data: [DONE]', 'data:[DONE]', 'event: error', 'event:error']);

/** Which chunk (by index) first completes a line that begins with a start; -1 for none. */
function firstFound(chunks: string[]): number {
  const finder = createLineStartFinder(STARTS);
  return chunks.findIndex((chunk) => finder(Buffer.from(chunk, 'latin1')));
}

/** The same from the whole text: the end of the first line start (after LF, CR or the stream's start) that matches. */
function expectedEnd(text: string): number {
  let best = -1;
  for (const start of ['data: [DONE]', 'data:[DONE]', 'event: error', 'event:error']) {
    for (let at = text.indexOf(start); at >= 0; at = text.indexOf(start, at + 1)) {
      if (at === 0 || text[at - 1] === '\n' || text[at - 1] === '\r') {
        const end = at + start.length;
        if (best < 0 || end < best) best = end;
      }
    }
  }
  return best;
}

describe('createLineStartFinder', () => {
  const STREAMS = [
    'data: {"x":1}\n\ndata: [DONE]\n\n',
    'data: {"x":"data: [DONE]"}\n\n',
    'event: message\r\ndata: {}\r\n\r\nevent: error\r\ndata: {}\r\n\r\n',
    'data:[DONE]',
    ': comment\rdata:[DONE]\r',
    'data: [DON\n\ndata: [DONE\n',
    'event: errors are fine\n',
    'xdata: [DONE]\n',
  ];

  it('finds a start at a line start only, in the chunk that completes it, wherever the stream is cut (two and three pieces)', () => {
    for (const text of STREAMS) {
      const end = expectedEnd(text);
      for (let a = 0; a <= text.length; a += 1) {
        for (let b = a; b <= text.length; b += 1) {
          const chunks = [text.slice(0, a), text.slice(a, b), text.slice(b)];
          const index = firstFound(chunks);
          const expected = end < 0 ? -1 : end <= a ? 0 : end <= b ? 1 : 2;
          expect(index, `${JSON.stringify(text)} cut at ${a}, ${b}`).to.equal(expected);
        }
      }
    }
  });

  it('reads a chunk of one byte at a time', () => {
    const text = 'data: {"x":1}\n\ndata: [DONE]\n\n';
    const index = firstFound([...text]);
    expect(index).to.equal(expectedEnd(text) - 1);
  });
});
