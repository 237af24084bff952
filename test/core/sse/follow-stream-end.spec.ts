import { expect } from 'chai';
import { createStreamEndFollower } from '../../../core/sse/follow-stream-end';

function endedAfter(format: Parameters<typeof createStreamEndFollower>[0], chunks: string[]): boolean {
  const follower = createStreamEndFollower(format);
  for (const chunk of chunks) follower.push(Buffer.from(chunk));
  return follower.ended();
}

describe('createStreamEndFollower', () => {
  it('reads the same ended and finished wherever a stream is cut in three (marks across chunks, a chunk ending mid-line)', () => {
    const streams: Array<[Parameters<typeof createStreamEndFollower>[0], string]> = [
      ['chat-completions', 'data: {"choices":[{"delta":{"content":"a"},"finish_reason":null}]}\n\ndata: {"choices":[{"delta":{},"finish_reason": "stop"}]}\n\ndata: [DONE]\n\n'],
      ['messages', 'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n'],
      ['responses', 'data: {"type":"response.output_text.delta","delta":"a"}\n\ndata: {"type": "response.completed","response":{}}\n\n'],
    ];
    for (const [format, text] of streams) {
      for (let a = 0; a <= text.length; a += 1) {
        for (let b = a; b <= text.length; b += 3) {
          const follower = createStreamEndFollower(format);
          for (const piece of [text.slice(0, a), text.slice(a, b), text.slice(b)]) follower.push(Buffer.from(piece));
          expect(follower.ended(), `${format} cut at ${a}, ${b}`).to.equal(true);
          expect(follower.finished(), `${format} cut at ${a}, ${b}`).to.equal(true);
        }
      }
      // Without its last event, no end (and for chat and Messages, still finished by the stop reason).
      const body = text.slice(0, text.lastIndexOf(format === 'messages' ? 'event: message_stop' : 'data: '));
      for (let a = 0; a <= body.length; a += 1) {
        const follower = createStreamEndFollower(format);
        follower.push(Buffer.from(body.slice(0, a)));
        follower.push(Buffer.from(body.slice(a)));
        expect(follower.ended(), `${format} without its end, cut at ${a}`).to.equal(false);
        expect(follower.finished(), `${format} without its end, cut at ${a}`).to.equal(format !== 'responses');
      }
    }
  });

  it('sees each format\'s end line at a line\'s start, in any chunk, with or without the space after the colon', () => {
    expect(endedAfter('chat-completions', ['data: {"x":1}\n\n', 'data: [DONE]\n\n'])).to.equal(true);
    expect(endedAfter('chat-completions', ['data: {"x":1}\n\ndata: [DONE]\n\n'])).to.equal(true);
    expect(endedAfter('chat-completions', ['data: {"x":1}\n\n', 'data:[DONE]\n\n'])).to.equal(true);
    expect(endedAfter('messages', ['event: message_delta\ndata: {}\n\n', 'event: message_stop\ndata: {"type":"message_stop"}\n\n'])).to.equal(true);
    expect(endedAfter('messages', ['event: error\ndata: {}\n\n'])).to.equal(true);
    expect(endedAfter('responses', ['event: response.completed\ndata: {}\n\n'])).to.equal(true);
  });

  it("takes a chat choice's finish_reason for a finished answer (not its end), split anywhere, never model text naming it", () => {
    const finishedAfter = (chunks: string[]): boolean => {
      const follower = createStreamEndFollower('chat-completions');
      for (const chunk of chunks) follower.push(Buffer.from(chunk));
      return follower.finished() && !follower.ended();
    };
    expect(finishedAfter(['data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\n'])).to.equal(true);
    expect(finishedAfter(['data: {"choices":[{"delta":{},"finish_re', 'ason": "tool_calls"}]}\n\n'])).to.equal(true);
    expect(finishedAfter(['data: {"choices":[{"delta":{"content":"hi"},"finish_reason":null}]}\n\n'])).to.equal(false);
    // Ollama and sglang send an empty finish_reason on every chunk: no finish.
    expect(finishedAfter(['data: {"choices":[{"delta":{"content":"hi"},"finish_reason":""}]}\n\n'])).to.equal(false);
    expect(finishedAfter(['data: {"choices":[{"delta":{},"finish_reason":"', 's', 'top"}]}\n\n'])).to.equal(true);
    // Quotes inside a string are escaped: text that names the key is no finish.
    expect(finishedAfter(['data: {"choices":[{"delta":{"content":"say \\"finish_reason\\":\\"stop\\""},"finish_reason":null}]}\n\n'])).to.equal(false);
  });

  it('takes a chat answer of n choices for finished once every choice has had its finish_reason, in any order and split anywhere', () => {
    const event = (choices: unknown[]): string => `data: ${JSON.stringify({ choices })}\n\n`;
    const stream =
      event([{ index: 0, delta: { content: 'a' }, finish_reason: null }, { index: 1, delta: { content: 'b' }, finish_reason: '' }]) +
      event([{ index: 1, delta: {}, finish_reason: 'stop' }]) +
      event([{ index: 1, delta: {}, finish_reason: 'stop' }]) +
      event([{ index: 0, delta: {}, finish_reason: 'length' }]);
    const lastStart = stream.lastIndexOf('data: ');
    for (let cut = 1; cut < stream.length; cut += 7) {
      // Asked once the stream is over (here: stopped at the cut). Before choice 0's finish line ended, the second finish
      // of choice 1 (a repeat) does not finish the answer; a last event whose blank line never came does.
      const stopped = createStreamEndFollower('chat-completions', 2);
      stopped.push(Buffer.from(stream.slice(0, cut)));
      expect(stopped.finished(), `cut at ${cut}`).to.equal(cut >= stream.length - 1);
      const follower = createStreamEndFollower('chat-completions', 2);
      follower.push(Buffer.from(stream.slice(0, cut)));
      follower.push(Buffer.from(stream.slice(cut)));
      expect(follower.finished(), `cut at ${cut}`).to.equal(true);
      expect(follower.ended()).to.equal(false);
    }
    const lastLineEnded = createStreamEndFollower('chat-completions', 2);
    lastLineEnded.push(Buffer.from(stream.slice(0, -1)));
    expect(lastLineEnded.finished(), 'its data line ended, its blank line not come').to.equal(true);
    expect(lastStart).to.be.greaterThan(0);
    const three = createStreamEndFollower('chat-completions', 3);
    three.push(Buffer.from(stream));
    expect(three.finished()).to.equal(false);
    three.push(Buffer.from('data: [DONE]\n\n'));
    expect(three.finished()).to.equal(true);
  });

  it('does not take model text for an end line when a chunk starts inside a line (a long event split anywhere)', () => {
    expect(endedAfter('chat-completions', ['data: {"choices":[{"delta":{"content":"Streams end with ', 'data: [DONE] then close"}}]}\n\n'])).to.equal(false);
    expect(endedAfter('messages', ['event: content_block_delta\ndata: {"delta":{"text":"ends with ', 'event: message_stop as its last"}}\n\n'])).to.equal(false);
  });

  it('lets a Responses stream go on after an error event (a proxy may send response.failed after it)', () => {
    expect(endedAfter('responses', ['event: error\ndata: {}\n\n'])).to.equal(false);
    expect(endedAfter('responses', ['event: error\ndata: {}\n\n', 'event: response.failed\ndata: {}\n\n'])).to.equal(true);
  });

  it('has no end line for Gemini, whose last chunk carries finishReason', () => {
    const follower = createStreamEndFollower('gemini');
    expect(follower.hasEndLine).to.equal(false);
    follower.push(Buffer.from('data: {"candidates":[{"content":{"parts":[{"text":"x"}]},"finishReason":"STOP"}]}\r\n\r\n'));
    expect(follower.ended()).to.equal(true);
  });

  it('sees an end line split between two chunks, or one that starts a chunk after a line break', () => {
    expect(endedAfter('chat-completions', ['data: {"x":1}\n\ndata: [DO', 'NE]\n\n'])).to.equal(true);
    expect(endedAfter('messages', ['event: message_delta\ndata: {}\n\nevent: message_st', 'op\ndata: {"type":"message_stop"}\n\n'])).to.equal(true);
    expect(endedAfter('messages', ['event: message_delta\ndata: {}\n\n', 'event: message_stop\n', 'data: {}\n\n'])).to.equal(true);
    expect(endedAfter('chat-completions', ['data: [DONE]\n\n'])).to.equal(true);
    expect(endedAfter('chat-completions', ['data: {"x":1}\r\rdata: [DONE]\r\r'])).to.equal(true);
  });

  it('does not take a finishReason key in a function call\'s args, or one candidate\'s finish while another streams, for the end', () => {
    const args = 'data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"set","args":{"finishReason":"pending"}}}]},"index":0}]}\r\n\r\n';
    expect(endedAfter('gemini', [args])).to.equal(false);
    const first = 'data: {"candidates":[{"content":{"parts":[{"text":"A"}]},"finishReason":"STOP","index":0},{"content":{"parts":[{"text":"B"}]},"index":1}]}\r\n\r\n';
    expect(endedAfter('gemini', [first])).to.equal(false);
    expect(endedAfter('gemini', [first, 'data: {"candidates":[{"content":{"parts":[{"text":"."}]},"finishReason":"STOP","index":1}]}\r\n\r\n'])).to.equal(true);
  });

  it("counts Gemini's last event though its blank line, or its line end, never came", () => {
    const last = 'data: {"candidates":[{"content":{"parts":[{"text":"x"}]},"finishReason":"STOP","index":0}]}';
    expect(endedAfter('gemini', [last + '\n'])).to.equal(true);
    expect(endedAfter('gemini', [last + '\r\n'])).to.equal(true);
    expect(endedAfter('gemini', [last])).to.equal(true);
    expect(endedAfter('gemini', [last.slice(0, -3)])).to.equal(false);
  });

  it("sees Gemini's finishReason split between two chunks", () => {
    expect(endedAfter('gemini', ['data: {"candidates":[{"content":{"parts":[{"text":"x"}]},"finishRea', 'son":"STOP"}]}\r\n\r\n'])).to.equal(true);
    expect(endedAfter('gemini', ['data: {"candidates":[{"content":{"parts":[{"text":"x"}]}}]}\r\n\r\n'])).to.equal(false);
  });
});
