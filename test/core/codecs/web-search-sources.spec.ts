import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { CODECS } from '../../../core/codecs';
import { formatSseEvent } from '../../../core/sse/format-sse-event';
import type { WireEvent } from '../../../core/sse/wire-event';
import type { UnifiedResponse } from '../../../core/unified/unified-response';
import { decodeSse, encodeEvents, payloads } from './openai-codec-kit';

/** An Anthropic answer that searched the web (the shape of Anthropic's web search tool; the simulator's too). */
const CLAUDE_ANSWER = {
  id: 'msg_01ws',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [
    { type: 'server_tool_use', id: 'srvtoolu_01abc', name: 'web_search', input: { query: 'node 20 release' } },
    {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_01abc',
      content: [
        { type: 'web_search_result', url: 'https://nodejs.org/en/blog/release/v20.0.0', title: 'Node.js 20', encrypted_content: 'e1' },
        { type: 'web_search_result', url: 'https://news.example.net/node', title: 'News', encrypted_content: 'e2' },
      ],
    },
    { type: 'text', text: 'Here is what I found. ' },
    { type: 'text', text: 'Node 20 came out in April 2023.', citations: [{ type: 'web_search_result_location', url: 'https://nodejs.org/en/blog/release/v20.0.0', title: 'Node.js 20', cited_text: 'Node.js 20 is now available', encrypted_index: 'x' }] },
  ],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 50, output_tokens: 20 },
};

/** The same answer streamed as Anthropic streams it. */
function claudeStream(): string {
  const event = (type: string, payload: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
  return [
    event('message_start', { message: { ...CLAUDE_ANSWER, content: [], stop_reason: null } }),
    event('content_block_start', { index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_01abc', name: 'web_search', input: {} } }),
    event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"query": "node 20' } }),
    event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: ' release"}' } }),
    event('content_block_stop', { index: 0 }),
    event('content_block_start', { index: 1, content_block: CLAUDE_ANSWER.content[1] }),
    event('content_block_stop', { index: 1 }),
    event('content_block_start', { index: 2, content_block: { type: 'text', text: '' } }),
    event('content_block_delta', { index: 2, delta: { type: 'text_delta', text: 'Here is what I found. ' } }),
    event('content_block_stop', { index: 2 }),
    event('content_block_start', { index: 3, content_block: { type: 'text', text: '', citations: [] } }),
    event('content_block_delta', { index: 3, delta: { type: 'citations_delta', citation: CLAUDE_ANSWER.content[3].citations![0] } }),
    event('content_block_delta', { index: 3, delta: { type: 'text_delta', text: 'Node 20 came out ' } }),
    event('content_block_delta', { index: 3, delta: { type: 'text_delta', text: 'in April 2023.' } }),
    event('content_block_stop', { index: 3 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } }),
    event('message_stop', {}),
  ].join('');
}

const CITED = { url: 'https://nodejs.org/en/blog/release/v20.0.0', title: 'Node.js 20', start: 22, end: 53 };
const SEARCH = { id: 'srvtoolu_01abc', query: 'node 20 release', sources: [{ url: 'https://nodejs.org/en/blog/release/v20.0.0', title: 'Node.js 20' }, { url: 'https://news.example.net/node', title: 'News' }] };
const responsesRequest = CODECS.responses.decodeRequest({ model: 'm', input: 'when did node 20 come out?', tools: [{ type: 'web_search' }], stream: true });
const chatRequest = CODECS['chat-completions'].decodeRequest({ model: 'm', messages: [{ role: 'user', content: 'q' }], web_search_options: {}, stream: true });

/** The official SDK, answered with `wire` as an SSE stream. */
function sdkServing(wire: WireEvent[]): OpenAI {
  return new OpenAI({ apiKey: 'k', baseURL: 'http://sdk.invalid/v1', maxRetries: 0, fetch: async () => new Response(wire.map((event) => formatSseEvent(event)).join(''), { headers: { 'content-type': 'text/event-stream' } }) });
}

describe('web search sources from Claude and Gemini reach Responses and chat clients', () => {
  it('Anthropic whole answer: the search and the cited span of the answer\'s text', () => {
    const unified = CODECS.messages.decodeResponse(CLAUDE_ANSWER);
    expect(unified.webSearches).to.deep.equal([SEARCH]);
    expect(unified.citations).to.deep.equal([CITED]);
  });

  it('Anthropic stream: the same search and citation as events, the citation once its block has ended', () => {
    const events = decodeSse(CODECS.messages.createStreamDecoder(), claudeStream());
    expect(events.filter((e) => e.type === 'web_search')).to.deep.equal([{ type: 'web_search', search: SEARCH }]);
    expect(events.filter((e) => e.type === 'citations')).to.deep.equal([{ type: 'citations', citations: [CITED] }]);
  });

  it('Responses whole answer: a web_search_call item first, then the message with url_citation annotations', () => {
    const body = CODECS.responses.encodeResponse(CODECS.messages.decodeResponse(CLAUDE_ANSWER), { ...responsesRequest, stream: false }) as { output: Array<Record<string, any>> };
    expect(body.output[0]).to.deep.equal({
      id: 'ws_01abc',
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'search', query: 'node 20 release', sources: [{ type: 'url', url: 'https://nodejs.org/en/blog/release/v20.0.0' }, { type: 'url', url: 'https://news.example.net/node' }] },
    });
    // Consecutive text is one output_text, as streamed: a citation may span what came as several blocks.
    const [only, ...more] = body.output[1].content as Array<{ text: string; annotations: unknown[] }>;
    expect(more).to.deep.equal([]);
    expect(only.annotations).to.deep.equal([{ type: 'url_citation', start_index: 22, end_index: 53, url: CITED.url, title: 'Node.js 20' }]);
    expect(only.text.slice(22, 53)).to.equal('Node 20 came out in April 2023.');
  });

  it('Responses stream: the SDK rebuilds the web_search_call item and the annotation on the whole text', async () => {
    const unified = decodeSse(CODECS.messages.createStreamDecoder(), claudeStream());
    const wire = encodeEvents(CODECS.responses.createStreamEncoder(responsesRequest), unified);
    expect(wire.map((e) => e.event)).to.include.members(['response.web_search_call.completed', 'response.output_text.annotation.added']);
    const final = await sdkServing(wire).responses.stream({ model: 'm', input: 'q' }).finalResponse();
    expect(final.output.map((item) => item.type)).to.deep.equal(['web_search_call', 'message']);
    const message = final.output[1];
    const text = message.type === 'message' ? message.content[0] : undefined;
    expect(text?.type === 'output_text' && text.text).to.equal('Here is what I found. Node 20 came out in April 2023.');
    expect(text?.type === 'output_text' && text.annotations).to.deep.equal([{ type: 'url_citation', start_index: 22, end_index: 53, url: CITED.url, title: 'Node.js 20' }]);
  });

  it('chat: message.annotations whole, and an annotations delta streamed (url_citation, offsets into content)', () => {
    const whole = CODECS['chat-completions'].encodeResponse(CODECS.messages.decodeResponse(CLAUDE_ANSWER), { ...chatRequest, stream: false }) as { choices: Array<{ message: { content: string; annotations: unknown[] } }> };
    const annotation = { type: 'url_citation', url_citation: { start_index: 22, end_index: 53, url: CITED.url, title: 'Node.js 20' } };
    expect(whole.choices[0].message.annotations).to.deep.equal([annotation]);
    expect(whole.choices[0].message.content.slice(22, 53)).to.equal('Node 20 came out in April 2023.');
    const chunks = payloads(encodeEvents(CODECS['chat-completions'].createStreamEncoder(chatRequest), decodeSse(CODECS.messages.createStreamDecoder(), claudeStream())));
    // Once, all of them, just before the finish chunk (a second list delta would replace or break the first).
    const deltas = chunks.flatMap((chunk) => (chunk.choices as Array<{ delta: { annotations?: unknown[] }; finish_reason: string | null }>).map((choice) => [choice.delta.annotations, choice.finish_reason]));
    const at = deltas.findIndex(([list]) => list !== undefined);
    expect(deltas[at][0]).to.deep.equal([annotation]);
    expect(deltas.filter(([list]) => list !== undefined)).to.have.length(1);
    expect(deltas[at + 1][1]).to.equal('stop');
  });

  it('Gemini grounding: UTF-8 byte offsets become character offsets, each support citing its pages, whole and streamed', () => {
    const text = 'Café über alles. Node 20 came out in April 2023.';
    const start = Buffer.byteLength('Café über alles. ');
    const grounding = {
      webSearchQueries: ['node 20 release'],
      groundingChunks: [{ web: { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc', title: 'nodejs.org' } }],
      groundingSupports: [{ segment: { startIndex: start, endIndex: Buffer.byteLength(text), text: 'Node 20 came out in April 2023.' }, groundingChunkIndices: [0] }],
    };
    const answer = { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0, groundingMetadata: grounding }], responseId: 'r1', modelVersion: 'gemini-2.5-flash' };
    const whole: UnifiedResponse = CODECS.gemini.decodeResponse(answer);
    const cited = { url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc', title: 'nodejs.org', start: 17, end: text.length };
    expect(text.slice(cited.start, cited.end)).to.equal('Node 20 came out in April 2023.');
    expect(whole.citations).to.deep.equal([cited]);
    expect(whole.webSearches).to.deep.equal([{ id: 'ws_r1', query: 'node 20 release', sources: [{ url: cited.url, title: 'nodejs.org' }] }]);
    const decoder = CODECS.gemini.createStreamDecoder();
    const streamed = [
      ...decoder.push({ data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: text.slice(0, 20) }] }, index: 0 }], responseId: 'r1' }) }),
      ...decoder.push({ data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: text.slice(20) }] }, finishReason: 'STOP', index: 0, groundingMetadata: grounding }], responseId: 'r1' }) }),
      ...decoder.end(),
    ];
    expect(streamed.filter((e) => e.type === 'citations')).to.deep.equal([{ type: 'citations', citations: [cited] }]);
    expect(streamed.filter((e) => e.type === 'web_search')).to.have.length(1);
  });

  it('a failed Anthropic search is a web_search_call with status failed, whole and streamed', async () => {
    const failed = { ...CLAUDE_ANSWER, content: [CLAUDE_ANSWER.content[0], { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01abc', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } }, { type: 'text', text: 'I could not search.' }] };
    const body = CODECS.responses.encodeResponse(CODECS.messages.decodeResponse(failed), { ...responsesRequest, stream: false }) as { output: Array<Record<string, unknown>> };
    expect(body.output[0]).to.deep.include({ type: 'web_search_call', status: 'failed' });
    const wire = encodeEvents(CODECS.responses.createStreamEncoder(responsesRequest), [
      { type: 'start', id: 'msg_1', model: 'm', created: 1 },
      { type: 'web_search', search: { id: 'srvtoolu_9', query: 'q', sources: [], failed: true } },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    ]);
    expect(wire.map((e) => e.event)).not.to.include('response.web_search_call.completed');
    const final = await sdkServing(wire).responses.stream({ model: 'm', input: 'q' }).finalResponse();
    expect(final.output[0]).to.deep.include({ type: 'web_search_call', status: 'failed' });
  });

  it('Gemini stream: citations reach the open message (annotation.added) before the search item and before a call of the same chunk', () => {
    const text = 'Node 20 came out in April 2023.';
    const grounding = { webSearchQueries: ['node 20'], groundingChunks: [{ web: { uri: 'https://a.example/', title: 'a' } }], groundingSupports: [{ segment: { startIndex: 0, endIndex: text.length }, groundingChunkIndices: [0] }] };
    const decoder = CODECS.gemini.createStreamDecoder();
    const unified = [
      ...decoder.push({ data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }], responseId: 'r1' }) }),
      ...decoder.push({ data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] }, finishReason: 'STOP', index: 0, groundingMetadata: grounding }], responseId: 'r1' }) }),
      ...decoder.end(),
    ];
    expect(unified.map((e) => e.type)).to.deep.equal(['start', 'text_delta', 'citations', 'web_search', 'tool_call_start', 'tool_call_delta', 'finish']);
    const events = encodeEvents(CODECS.responses.createStreamEncoder(responsesRequest), unified).map((e) => e.event);
    expect(events.indexOf('response.output_text.annotation.added')).to.be.lessThan(events.indexOf('response.output_text.done'));
  });

  it('Gemini grounding: an offset inside a character takes all of it, never splitting a surrogate pair', () => {
    const text = 'AB😀CD';
    const answer = { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0, groundingMetadata: { groundingChunks: [{ web: { uri: 'https://a.example/' } }], groundingSupports: [{ segment: { startIndex: 3, endIndex: 7 }, groundingChunkIndices: [0] }] } }], responseId: 'r2' };
    const [citation] = CODECS.gemini.decodeResponse(answer).citations ?? [];
    expect(text.slice(citation.start, citation.end)).to.equal('😀C');
  });

  it('Gemini stream: groundings sent early, in several chunks or growing, are gathered and told once with the last chunk', () => {
    const first = 'Paris is the capital. ';
    const second = 'It has 2.1M people.';
    const page = (n: number) => ({ web: { uri: `https://${n}.example/`, title: `p${n}` } });
    const support = (from: number, to: number, index: number) => ({ segment: { startIndex: from, endIndex: to }, groundingChunkIndices: [index] });
    const decoder = CODECS.gemini.createStreamDecoder();
    const events = [
      ...decoder.push({ data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: first }] }, index: 0, groundingMetadata: { webSearchQueries: ['paris'], groundingChunks: [page(1)], groundingSupports: [support(0, 21, 0)] } }], responseId: 'g' }) }),
      ...decoder.push({ data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: second }] }, finishReason: 'STOP', index: 0, groundingMetadata: { webSearchQueries: ['paris'], groundingChunks: [page(1), page(2)], groundingSupports: [support(0, 21, 0), support(22, 41, 1)] } }], responseId: 'g' }) }),
      ...decoder.end(),
    ];
    expect(events.map((e) => e.type)).to.deep.equal(['start', 'text_delta', 'text_delta', 'citations', 'web_search', 'finish']);
    const citations = events.find((e) => e.type === 'citations');
    expect(citations?.type === 'citations' && citations.citations.map((c) => [c.url, c.start, c.end])).to.deep.equal([
      ['https://1.example/', 0, 21],
      ['https://2.example/', 22, 41],
    ]);
    const search = events.find((e) => e.type === 'web_search');
    expect(search?.type === 'web_search' && search.search).to.deep.equal({ id: 'ws_g', query: 'paris', sources: [{ url: 'https://1.example/', title: 'p1' }, { url: 'https://2.example/', title: 'p2' }] });
  });

  it('Gemini clients: the sources come back as groundingMetadata (queries, pages, supports in UTF-8 byte offsets), whole and streamed', () => {
    const geminiRequest = CODECS.gemini.decodeRequest({ contents: [{ role: 'user', parts: [{ text: 'q' }] }], tools: [{ googleSearch: {} }] }, { model: 'claude-sonnet-4-5', stream: false });
    const expected = {
      webSearchQueries: ['node 20 release'],
      groundingChunks: [{ web: { uri: CITED.url, title: 'Node.js 20' } }, { web: { uri: 'https://news.example.net/node', title: 'News' } }],
      groundingSupports: [{ segment: { startIndex: 22, endIndex: 53, text: 'Node 20 came out in April 2023.' }, groundingChunkIndices: [0] }],
    };
    const whole = CODECS.gemini.encodeResponse(CODECS.messages.decodeResponse(CLAUDE_ANSWER), geminiRequest) as { candidates: Array<Record<string, unknown>> };
    expect(whole.candidates[0].groundingMetadata).to.deep.equal(expected);
    const chunks = payloads(encodeEvents(CODECS.gemini.createStreamEncoder({ ...geminiRequest, stream: true }), decodeSse(CODECS.messages.createStreamDecoder(), claudeStream())));
    const grounded = chunks.filter((chunk) => (chunk.candidates as Array<Record<string, unknown>>)[0].groundingMetadata !== undefined);
    expect(grounded).to.have.length(1);
    expect((grounded[0].candidates as Array<Record<string, unknown>>)[0]).to.deep.include({ finishReason: 'STOP', groundingMetadata: expected });
    // Byte offsets: text before the span with a multi-byte character moves them.
    const accented = { ...CLAUDE_ANSWER, content: [...CLAUDE_ANSWER.content.slice(0, 2), { type: 'text', text: 'Voilà. ' }, CLAUDE_ANSWER.content[3]] };
    const moved = CODECS.gemini.encodeResponse(CODECS.messages.decodeResponse(accented), geminiRequest) as { candidates: Array<{ groundingMetadata: { groundingSupports: Array<{ segment: { startIndex: number } }> } }> };
    expect(moved.candidates[0].groundingMetadata.groundingSupports[0].segment.startIndex).to.equal(Buffer.byteLength('Voilà. '));
  });

  it('Messages clients (Claude Code\'s WebSearch on Gemini): the search as server_tool_use + web_search_tool_result, citations on the text, whole and streamed', async () => {
    const text = 'Paris is the capital. It has 2.1M people.';
    const grounding = { webSearchQueries: ['paris'], groundingChunks: [{ web: { uri: 'https://a.example/', title: 'a' } }], groundingSupports: [{ segment: { startIndex: 22, endIndex: 41 }, groundingChunkIndices: [0] }] };
    const answer = { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0, groundingMetadata: grounding }], responseId: 'g1', modelVersion: 'gemini-2.5-flash' };
    const request = CODECS.messages.decodeRequest({ model: 'gemini-2.5-flash', max_tokens: 100, tools: [{ type: 'web_search_20250305', name: 'web_search' }], messages: [{ role: 'user', content: 'q' }] });
    const citation = { type: 'web_search_result_location', url: 'https://a.example/', title: 'a', cited_text: 'It has 2.1M people.', encrypted_index: '' };
    const whole = CODECS.messages.encodeResponse(CODECS.gemini.decodeResponse(answer), request) as { content: Array<Record<string, unknown>> };
    expect(whole.content.map((block) => block.type)).to.deep.equal(['server_tool_use', 'web_search_tool_result', 'text']);
    expect(whole.content[0]).to.deep.include({ name: 'web_search', input: { query: 'paris' } });
    expect(whole.content[1].content).to.deep.equal([{ type: 'web_search_result', url: 'https://a.example/', title: 'a', encrypted_content: '', page_age: null }]);
    expect(whole.content[2]).to.deep.equal({ type: 'text', text, citations: [citation] });
    const decoder = CODECS.gemini.createStreamDecoder();
    const unified = [...decoder.push({ data: JSON.stringify(answer) }), ...decoder.end()];
    const wire = encodeEvents(CODECS.messages.createStreamEncoder({ ...request, stream: true }), unified);
    const sdk = new Anthropic({ apiKey: 'k', baseURL: 'http://sdk.invalid', maxRetries: 0, fetch: async () => new Response(wire.map((event) => formatSseEvent(event)).join(''), { headers: { 'content-type': 'text/event-stream' } }) });
    const final = await sdk.messages.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'q' }] }).finalMessage();
    expect(final.content.map((block) => block.type)).to.deep.equal(['text', 'server_tool_use', 'web_search_tool_result']);
    expect(final.content[0]).to.deep.include({ text, citations: [citation] });
    expect(final.content[1]).to.deep.include({ name: 'web_search', input: { query: 'paris' } });
  });
});
