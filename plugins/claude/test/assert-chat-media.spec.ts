import { expect } from 'chai';
import { chatCompletionsCodec, isGatewayError, type UnifiedMessage, type UnifiedMediaPart, type UnifiedRequest } from '@gateway/core';
import { assertChatMediaAllowed } from '../src/assert-chat-media';

function request(messages: UnifiedMessage[], system: string[] = []): UnifiedRequest {
  return { model: 'm', system, messages, stream: false };
}

function user(...parts: UnifiedMediaPart[]): UnifiedMessage {
  return { role: 'user', content: [{ type: 'text', text: 'look' }, ...parts] };
}

function refusal(run: () => void): { status: number; param?: string; message: string } {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return { status: error.status, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('assertChatMediaAllowed', () => {
  const allowed: Array<[string, UnifiedMediaPart]> = [
    ['a PNG data URI', { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'x' } }],
    ['a JPEG written image/jpg', { type: 'image', source: { kind: 'base64', mediaType: 'image/jpg', data: 'x' } }],
    ['an image URL', { type: 'image', source: { kind: 'url', url: 'https://example.com/a' } }],
    ['an inline PDF', { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'x' } }],
    ['a PDF URL', { type: 'file', source: { kind: 'url', url: 'https://example.com/doc.pdf?x=1' } }],
    ['a file URL without an extension', { type: 'file', source: { kind: 'url', url: 'https://example.com/download' } }],
  ];
  for (const [name, part] of allowed) {
    it(`accepts ${name}`, () => {
      expect(() => assertChatMediaAllowed(request([user(part)]), 'claude')).not.to.throw();
    });
  }

  const refused: Array<[string, UnifiedMediaPart, RegExp]> = [
    ['audio', { type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'x' } }, /audio input \(audio\/wav\)/],
    ['video', { type: 'video', source: { kind: 'url', url: 'https://example.com/v.mp4' } }, /video input/],
    ['a text file', { type: 'file', source: { kind: 'base64', mediaType: 'text/plain', data: 'x' } }, /a file \(text\/plain\)/],
    ['a .docx URL', { type: 'file', source: { kind: 'url', url: 'https://example.com/a.docx' } }, /a file/],
    ['a BMP image', { type: 'image', source: { kind: 'base64', mediaType: 'image/bmp', data: 'x' } }, /an image \(image\/bmp\)/],
  ];
  for (const [name, part, what] of refused) {
    it(`answers 415 for ${name}, pointing at the messages endpoint`, () => {
      const error = refusal(() => assertChatMediaAllowed(request([user(part)]), 'claude'));
      expect(error.status).to.equal(415);
      expect(error.param).to.equal('messages');
      expect(error.message).to.match(what);
      expect(error.message).to.include('/claude/v1/messages takes richer files');
    });
  }

  it('names the client’s field as the chat decoder recorded it: leading system messages and one chat message per tool result count', () => {
    const audio = { type: 'input_audio', input_audio: { data: 'eA==', format: 'mp3' } };
    const call = (id: string) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } });
    const decoded = chatCompletionsCodec.decodeRequest({
      model: 'm',
      messages: [
        { role: 'system', content: 'sys1' },
        { role: 'system', content: 'sys2' },
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
        { role: 'tool', tool_call_id: 'a', content: 'ok' },
        { role: 'tool', tool_call_id: 'b', content: [{ type: 'text', text: 'x' }, audio] },
      ],
    });
    expect(refusal(() => assertChatMediaAllowed(decoded, 'claude')).param).to.equal('messages[5].content[1]');
  });
});
