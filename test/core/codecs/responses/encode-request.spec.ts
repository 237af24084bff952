import { expect } from 'chai';
import { decodeResponsesRequest } from '../../../../core/codecs/responses/decode-request';
import { encodeResponsesRequest } from '../../../../core/codecs/responses/encode-request';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';
import { fixtureJson } from '../../../helpers/fixtures';

function encode(request: UnifiedRequest): Record<string, unknown> {
  return encodeResponsesRequest(request).value;
}

function base(extra: Partial<UnifiedRequest> = {}): UnifiedRequest {
  return { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, ...extra };
}

describe('encodeResponsesRequest', () => {
  for (const name of ['request-basic.json', 'request-function-call.json', 'request-function-call-output.json']) {
    it(`round-trips ${name} (decode, then encode)`, () => {
      const original = fixtureJson(`openai-responses/${name}`);
      const body = encode(decodeResponsesRequest(original));
      expect(body).to.deep.equal({ ...original, input: body.input });
      // Items come back in the explicit `type: message` form; their meaning is unchanged.
      expect(decodeResponsesRequest(body)).to.deep.equal(decodeResponsesRequest(original));
    });
  }

  it('keeps previous_response_id and other responses extensions for a responses upstream', () => {
    const body = encode(decodeResponsesRequest({ model: 'm', input: 'x', previous_response_id: 'resp_1', include: ['reasoning.encrypted_content'], store: true }));
    expect(body).to.include({ previous_response_id: 'resp_1', store: true });
    expect(body.include).to.deep.equal(['reasoning.encrypted_content']);
  });

  it('is stateless by default (store: false) and sends system as instructions, mid-conversation system as developer', () => {
    const body = encode(base({ system: ['a', 'b'], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }, { role: 'system', content: [{ type: 'text', text: 'mid' }] }] }));
    expect(body.store).to.equal(false);
    expect(body.instructions).to.equal('a\n\nb');
    expect(body.input).to.deep.equal([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'mid' }] },
    ]);
  });

  it('encodes an assistant turn as items in order, replaying only responses reasoning with encrypted content', () => {
    const body = encode(
      base({
        messages: [
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'sum', redactedData: 'ENC', id: 'rs_9', provider: 'responses' },
              { type: 'reasoning', text: 'claude thinking', signature: 'sig', provider: 'messages' },
              { type: 'text', text: 'Looking.' },
              { type: 'tool_call', id: 'toolu_1', name: 'spawn_agent', arguments: '{}' },
            ],
          },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'toolu_1', content: [{ type: 'text', text: 'ok' }, { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } }] }] },
        ],
        tools: [{ name: 'spawn_agent', parameters: { type: 'object' }, namespace: 'collaboration', namespaceDescription: 'agents' }, { name: 'shell', parameters: { type: 'object' }, strict: true }],
        builtinTools: [{ type: 'web_search' }],
      }),
    );
    expect(body.input).to.deep.equal([
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'sum' }], encrypted_content: 'ENC', id: 'rs_9' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.', annotations: [] }] },
      { type: 'function_call', call_id: 'toolu_1', name: 'spawn_agent', arguments: '{}', namespace: 'collaboration' },
      { type: 'function_call_output', call_id: 'toolu_1', output: [{ type: 'input_text', text: 'ok' }, { type: 'input_image', image_url: 'https://x/y.png', detail: 'auto' }] },
    ]);
    expect(body.tools).to.deep.equal([
      { type: 'namespace', name: 'collaboration', description: 'agents', tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'object' }, strict: false }] },
      { type: 'function', name: 'shell', parameters: { type: 'object' }, strict: true },
      { type: 'web_search' },
    ]);
  });

  it('maps reasoning, response format, tool choice and output limit; warns about settings Responses lacks', () => {
    const { value, warnings } = encodeResponsesRequest(
      base({
        reasoning: { enabled: true, budgetTokens: 8192, includeThoughts: true },
        responseFormat: { type: 'json_schema', name: 'o', schema: { type: 'object' }, strict: true },
        tools: [{ name: 'f', parameters: {} }],
        toolChoice: { name: 'f' },
        maxTokens: 100,
        stop: ['x'],
        seed: 3,
        stream: true,
      }),
    );
    expect(value.reasoning).to.deep.equal({ effort: 'medium', summary: 'auto' });
    expect(value.text).to.deep.equal({ format: { type: 'json_schema', name: 'o', schema: { type: 'object' }, strict: true } });
    expect(value.tool_choice).to.deep.equal({ type: 'function', name: 'f' });
    expect(value).to.include({ max_output_tokens: 100, stream: true });
    expect(warnings).to.have.length(2);
  });

  it('round-trips a freeform (custom) tool: the tool, its calls, their outputs and a forced choice go back in custom shape', () => {
    const original = {
      model: 'm',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix it' }] },
        { type: 'custom_tool_call', call_id: 'call_p', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_p', output: 'Done!' },
        { type: 'function_call', call_id: 'call_s', name: 'shell', arguments: '{"command":["ls"]}' },
        { type: 'function_call_output', call_id: 'call_s', output: 'a.txt' },
      ],
      tools: [
        { type: 'custom', name: 'apply_patch', description: 'Edit files', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } },
        { type: 'function', name: 'shell', parameters: { type: 'object' }, strict: false },
      ],
      tool_choice: { type: 'custom', name: 'apply_patch' },
    };
    const body = encode(decodeResponsesRequest(original));
    expect(body.tools).to.deep.equal(original.tools);
    expect(body.tool_choice).to.deep.equal({ type: 'custom', name: 'apply_patch' });
    expect(body.input).to.deep.equal([
      original.input[0],
      original.input[1],
      { type: 'custom_tool_call_output', call_id: 'call_p', output: 'Done!' },
      original.input[3],
      { type: 'function_call_output', call_id: 'call_s', output: 'a.txt' },
    ]);
  });

  it('refuses audio input with GW_MEDIA_NOT_ALLOWED naming the part', () => {
    try {
      encode(base({ messages: [{ role: 'user', content: [{ type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'x' } }] }] }));
      expect.fail('expected a GatewayError');
    } catch (e) {
      expect(isGatewayError(e) && e.code).to.equal('GW_MEDIA_NOT_ALLOWED');
      expect(isGatewayError(e) && e.param).to.equal('messages[0].content[0]');
    }
  });
});
