import { expect } from 'chai';
import { encodeChatCompletionsRequest } from '../../../../core/codecs/chat-completions/encode-request';
import { encodeRequest as encodeGeminiRequest } from '../../../../core/codecs/gemini/encode-request';
import { encodeMessagesRequest } from '../../../../core/codecs/messages/encode-request';
import { decodeResponsesRequest } from '../../../../core/codecs/responses/decode-request';
import { describeTool } from '../../../../core/codecs/shared/describe-tool';

describe('describeTool', () => {
  it("puts a namespace's description before its member's own", () => {
    expect(describeTool({ description: 'Spawns an agent.', namespaceDescription: 'Tools for sub-agents.' })).to.equal('Tools for sub-agents.\n\nSpawns an agent.');
    expect(describeTool({ namespaceDescription: 'Tools for sub-agents.' })).to.equal('Tools for sub-agents.');
    expect(describeTool({ description: 'Runs a command.' })).to.equal('Runs a command.');
    expect(describeTool({})).to.equal(undefined);
  });

  it("gives a Codex namespace's description to chat, Messages and Gemini upstreams on each member", () => {
    const request = decodeResponsesRequest({
      model: 'm',
      input: 'hi',
      tools: [
        { type: 'namespace', name: 'multi_agent_v1', description: 'Tools for spawning and managing sub-agents.', tools: [{ type: 'function', name: 'close_agent', description: 'Close an agent.', parameters: { type: 'object', properties: {} } }] },
        { type: 'function', name: 'shell', description: 'Runs a command.', parameters: { type: 'object', properties: {} } },
      ],
    });
    const expected = ['Tools for spawning and managing sub-agents.\n\nClose an agent.', 'Runs a command.'];
    const chat = encodeChatCompletionsRequest(request).value as { tools: Array<{ function: { description?: string } }> };
    expect(chat.tools.map((tool) => tool.function.description)).to.deep.equal(expected);
    const messages = encodeMessagesRequest(request).value as { tools: Array<{ description?: string }> };
    expect(messages.tools.map((tool) => tool.description)).to.deep.equal(expected);
    const gemini = encodeGeminiRequest(request).value as { tools: Array<{ functionDeclarations: Array<{ description?: string }> }> };
    expect(gemini.tools[0].functionDeclarations.map((tool) => tool.description)).to.deep.equal(expected);
  });
});
