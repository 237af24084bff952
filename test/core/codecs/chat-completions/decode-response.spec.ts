import { expect } from 'chai';
import { decodeChatCompletionsResponse } from '../../../../core/codecs/chat-completions/decode-response';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import { fixtureJson } from '../../../helpers/fixtures';

function errorOf(body: unknown): { code: string; status: number; message: string } {
  try {
    decodeChatCompletionsResponse(body);
  } catch (e) {
    if (isGatewayError(e)) return { code: e.code, status: e.status, message: e.message };
    throw e;
  }
  throw new Error('expected a GatewayError');
}

describe('decodeChatCompletionsResponse', () => {
  it('response-basic: text, finish reason, usage with details', () => {
    const response = decodeChatCompletionsResponse(fixtureJson('openai-chat/response-basic.json'));
    expect(response).to.deep.equal({
      id: 'chatcmpl-CGk7rT2yXbQ4mN8pVw1sLd3eHfJ0a',
      model: 'gpt-4.1-mini-2025-04-14',
      created: 1757935200,
      content: [{ type: 'text', text: 'Hello, nice to meet you!' }],
      finishReason: 'stop',
      usage: { inputTokens: 24, outputTokens: 8, totalTokens: 32, cachedInputTokens: 0, reasoningTokens: 0 },
    });
  });

  it('response-tool-calls: two tool calls with their ids and argument text', () => {
    const response = decodeChatCompletionsResponse(fixtureJson('openai-chat/response-tool-calls.json'));
    expect(response.finishReason).to.equal('tool_calls');
    expect(response.content).to.deep.equal([
      { type: 'tool_call', id: 'call_Xy8mQ2vR6tLp0sWn4kJd9aBc', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
      { type: 'tool_call', id: 'call_Hf3nK7pQ1zVx5mRt8yLw2eGu', name: 'get_weather', arguments: '{"city":"Tokyo","unit":"celsius"}' },
    ]);
  });

  it('reads reasoning_content (or reasoning) as reasoning before the text', () => {
    const body = { id: 'x', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok', reasoning_content: 'think' }, finish_reason: 'stop' }] };
    expect(decodeChatCompletionsResponse(body).content).to.deep.equal([
      { type: 'reasoning', text: 'think', provider: 'chat-completions' },
      { type: 'text', text: 'ok' },
    ]);
    const alt = { ...body, choices: [{ index: 0, message: { role: 'assistant', content: 'ok', reasoning: 'r' }, finish_reason: 'stop' }] };
    expect(decodeChatCompletionsResponse(alt).content[0]).to.deep.equal({ type: 'reasoning', text: 'r', provider: 'chat-completions' });
  });

  it('gives calls and answers without an id (or with "") ids of their own, distinct within and across answers', () => {
    const body = () => ({
      id: '',
      choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: '', type: 'function', function: { name: 'a', arguments: '{}' } }, { type: 'function', function: { name: 'b', arguments: '{}' } }] }, finish_reason: 'tool_calls' }],
    });
    const answers = [decodeChatCompletionsResponse(body()), decodeChatCompletionsResponse(body())];
    const ids = answers.flatMap((answer) => [answer.id, ...answer.content.flatMap((part) => (part.type === 'tool_call' ? [part.id] : []))]);
    expect(new Set(ids).size).to.equal(6);
    for (const id of ids) expect(id).to.match(/^(chatcmpl-|call_)[0-9a-f]{24}$/);
  });

  it('gives calls of one answer that share an id (a service numbering calls per answer) ids of their own', () => {
    const call = (name: string) => ({ id: 'call_0', type: 'function', function: { name, arguments: '{}' } });
    const answer = decodeChatCompletionsResponse({ id: 'x', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call('a'), call('b'), call('c')] }, finish_reason: 'tool_calls' }] });
    expect(answer.content.flatMap((part) => (part.type === 'tool_call' ? [[part.id, part.name]] : []))).to.deep.equal([['call_0', 'a'], ['call_0_2', 'b'], ['call_0_3', 'c']]);
  });

  it('maps finish reasons, and "stop" next to tool calls to tool_calls', () => {
    const make = (finish: string | null, toolCalls?: unknown[]) => ({
      id: 'x', created: 1, model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: toolCalls ? null : 'a', tool_calls: toolCalls }, finish_reason: finish }],
    });
    expect(decodeChatCompletionsResponse(make('length')).finishReason).to.equal('length');
    expect(decodeChatCompletionsResponse(make('content_filter')).finishReason).to.equal('content_filter');
    expect(decodeChatCompletionsResponse(make('weird')).finishReason).to.equal('other');
    // No reason (null, as some services answer) is the natural end a stream without one has; TGI/vLLM say `eos`.
    expect(decodeChatCompletionsResponse(make(null)).finishReason).to.equal('stop');
    expect(decodeChatCompletionsResponse(make('eos')).finishReason).to.equal('stop');
    expect(decodeChatCompletionsResponse(make('eos_token')).finishReason).to.equal('stop');
    const call = { id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } };
    expect(decodeChatCompletionsResponse(make('stop', [call])).finishReason).to.equal('tool_calls');
    // "tool_calls" with no call is a natural end: a Messages client told tool_use would wait for a call.
    expect(decodeChatCompletionsResponse(make('tool_calls')).finishReason).to.equal('stop');
  });

  it('turns an error envelope in a 200 body into the upstream error, keeping type and status', () => {
    const error = errorOf(fixtureJson('openai-chat/error-429.json'));
    expect(error.code).to.equal('GW_UPSTREAM_ERROR');
    expect(error.status).to.equal(429);
    expect(error.message).to.match(/^Rate limit reached/);
  });

  it('throws an error given as a string (a compatible service) as that error, its message kept', () => {
    expect(errorOf({ error: 'Upstream provider error: overloaded' })).to.include({ code: 'GW_UPSTREAM_ERROR', message: 'Upstream provider error: overloaded' });
  });

  it('answers GW_UPSTREAM_BAD_RESPONSE to a body without choices', () => {
    expect(errorOf({ id: 'x' }).code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    expect(errorOf('nope').code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
  });
});
