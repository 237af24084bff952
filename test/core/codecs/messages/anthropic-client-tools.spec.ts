import { expect } from 'chai';
import { CODECS } from '../../../../core/codecs';

const TYPED = [
  { type: 'bash_20250124', name: 'bash' },
  { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 10000 },
  { type: 'memory_20250818', name: 'memory' },
];

function decoded() {
  return CODECS.messages.decodeRequest({
    model: 'm',
    max_tokens: 200,
    tools: [...TYPED, { name: 'lookup', description: 'Look up', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }],
    tool_choice: { type: 'tool', name: 'bash' },
    messages: [{ role: 'user', content: 'Fix the typo in /repo/a.py' }],
  });
}

describe('Anthropic-defined client tools (bash, text editor, memory) on other formats', () => {
  it('reach a chat upstream as functions of their documented input, forced choice included', () => {
    const body = CODECS['chat-completions'].encodeRequest(decoded()).value as { tools: Array<{ function: { name: string; parameters: { properties: Record<string, unknown>; required?: string[] } } }>; tool_choice: unknown };
    expect(body.tools.map((tool) => tool.function.name)).to.deep.equal(['bash', 'str_replace_based_edit_tool', 'memory', 'lookup']);
    expect(Object.keys(body.tools[0].function.parameters.properties)).to.deep.equal(['command', 'restart']);
    expect(body.tools[1].function.parameters.required).to.deep.equal(['command', 'path']);
    expect(body.tools[2].function.parameters.properties).to.include.keys('insert_text', 'old_path', 'new_path');
    expect(body.tool_choice).to.deep.equal({ type: 'function', function: { name: 'bash' } });
  });

  it('reach a Gemini upstream as function declarations', () => {
    const body = CODECS.gemini.encodeRequest(decoded()).value as { tools: Array<{ functionDeclarations?: Array<{ name: string }> }> };
    expect(body.tools.flatMap((tool) => tool.functionDeclarations ?? []).map((fd) => fd.name)).to.deep.equal(['bash', 'str_replace_based_edit_tool', 'memory', 'lookup']);
  });

  it('go back to a Messages upstream as the typed tools they were, once each', () => {
    const body = CODECS.messages.encodeRequest(decoded()).value as { tools: Array<Record<string, unknown>> };
    expect(body.tools).to.deep.equal([{ name: 'lookup', description: 'Look up', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }, ...TYPED]);
  });
});
