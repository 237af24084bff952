import { expect } from 'chai';
import { uniqueTools } from '../../../../core/codecs/shared/unique-tools';
import { encodeRequest as encodeGeminiRequest } from '../../../../core/codecs/gemini/encode-request';
import { encodeMessagesRequest } from '../../../../core/codecs/messages/encode-request';
import type { UnifiedRequest, UnifiedTool } from '../../../../core/unified/unified-request';

const tool = (name: string, description = name): UnifiedTool => ({ name, description, parameters: { type: 'object', properties: {} } });

describe('uniqueTools', () => {
  it('keeps the first tool of each name, with a warning for each one left out, and the list itself when all differ', () => {
    const warnings: string[] = [];
    const tools = [tool('read_file', 'first'), tool('write_file'), tool('read_file', 'second')];
    expect(uniqueTools(tools, warnings)?.map((t) => [t.name, t.description])).to.deep.equal([['read_file', 'first'], ['write_file', 'write_file']]);
    expect(warnings).to.deep.equal(['tools: a second tool named "read_file" dropped, names must be unique upstream']);
    const distinct = [tool('a'), tool('b')];
    expect(uniqueTools(distinct)).to.equal(distinct);
    expect(uniqueTools(undefined)).to.equal(undefined);
  });

  it('is applied by the Messages and Gemini encoders, whose upstreams refuse a name given twice', () => {
    const request: UnifiedRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, tools: [tool('read_file'), tool('read_file')] };
    const messages = encodeMessagesRequest({ ...request, maxTokens: 100 }).value as { tools: Array<{ name: string }> };
    expect(messages.tools.map((t) => t.name)).to.deep.equal(['read_file']);
    const gemini = encodeGeminiRequest(request).value as { tools: Array<{ functionDeclarations: Array<{ name: string }> }> };
    expect(gemini.tools[0].functionDeclarations.map((t) => t.name)).to.deep.equal(['read_file']);
  });
});

describe('encodeMessagesTools: a function of the client named as a server tool', () => {
  it("leaves the server tool out, with a warning, where Anthropic would refuse two tools named web_search", () => {
    const request: UnifiedRequest = {
      model: 'claude-sonnet-4-5',
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      stream: false,
      maxTokens: 100,
      tools: [tool('web_search')],
      builtinTools: [{ type: 'web_search' }],
    };
    const { value, warnings } = encodeMessagesRequest(request);
    expect((value as { tools: Array<{ name: string; type?: string }> }).tools).to.deep.equal([{ name: 'web_search', description: 'web_search', input_schema: { type: 'object', properties: {} } }]);
    expect(warnings).to.include("tools: the web_search server tool dropped, a function of the client's has its name");
    const searchOnly = encodeMessagesRequest({ ...request, tools: [tool('read_file')] }).value as { tools: Array<{ name: string; type?: string }> };
    expect(searchOnly.tools.map((t) => t.type ?? t.name)).to.deep.equal(['read_file', 'web_search_20250305']);
  });
});
