import { expect } from 'chai';
import { createMessagesStreamDecoder } from '../../../../core/codecs/messages/create-messages-stream-decoder';
import { decodeMessagesResponse } from '../../../../core/codecs/messages/decode-response';
import { renderCodeExecutionBlock } from '../../../../core/codecs/messages/render-code-execution-block';
import type { WireEvent } from '../../../../core/sse/wire-event';

/** An answer of Claude's code execution tool (2025-08-25): a bash command, a file view, a failure. */
const BASH_CALL = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'bash_code_execution', input: { command: 'python -c "print(2+2)"' } };
const BASH_RESULT = { type: 'bash_code_execution_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'bash_code_execution_result', stdout: '4\n', stderr: '', return_code: 0, content: [] } };
const RENDERED = '\n```bash\npython -c "print(2+2)"\n```\n\n```output\n4\n```\n';

describe('renderCodeExecutionBlock', () => {
  it('renders code Claude ran and its result as fenced text, as Gemini code execution parts are', () => {
    expect(renderCodeExecutionBlock(BASH_CALL)).to.equal('\n```bash\npython -c "print(2+2)"\n```\n');
    expect(renderCodeExecutionBlock(BASH_RESULT)).to.equal('\n```output\n4\n```\n');
    expect(renderCodeExecutionBlock({ type: 'server_tool_use', name: 'code_execution', input: { code: 'print(1)\n' } })).to.equal('\n```python\nprint(1)\n```\n');
    expect(renderCodeExecutionBlock({ type: 'server_tool_use', name: 'text_editor_code_execution', input: { command: 'create', path: 'a.py', file_text: 'x = 1' } })).to.equal('\n```text\ncreate a.py\nx = 1\n```\n');
    expect(renderCodeExecutionBlock({ type: 'text_editor_code_execution_tool_result', content: { type: 'text_editor_code_execution_view_result', content: 'x = 1', file_type: 'text' } })).to.equal('\n```output\nx = 1\n```\n');
    expect(renderCodeExecutionBlock({ type: 'bash_code_execution_tool_result', content: { type: 'bash_code_execution_result', stdout: '', stderr: 'boom\n', return_code: 2 } })).to.equal('\n```output\nboom\nexit code 2\n```\n');
    expect(renderCodeExecutionBlock({ type: 'code_execution_tool_result', content: { type: 'code_execution_tool_result_error', error_code: 'unavailable' } })).to.equal('\n```output\nerror: unavailable\n```\n');
    // Web search is no code.
    expect(renderCodeExecutionBlock({ type: 'server_tool_use', name: 'web_search', input: { query: 'x' } })).to.equal(undefined);
  });

  it('whole answers give it to every client as text, between the text around it', () => {
    const response = decodeMessagesResponse({
      id: 'msg_1',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'Let me compute.' }, BASH_CALL, BASH_RESULT, { type: 'text', text: 'The answer is 4.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 5, output_tokens: 9 },
    });
    expect(response.content).to.deep.equal([
      { type: 'text', text: 'Let me compute.' },
      { type: 'text', text: '\n```bash\npython -c "print(2+2)"\n```\n' },
      { type: 'text', text: '\n```output\n4\n```\n' },
      { type: 'text', text: 'The answer is 4.' },
    ]);
  });

  it('streams give it as text once the call is whole (its input streams as JSON) and at once for the result', () => {
    const wire = (type: string, payload: Record<string, unknown>): WireEvent => ({ event: type, data: JSON.stringify({ type, ...payload }) });
    const decoder = createMessagesStreamDecoder();
    const events = [
      wire('message_start', { message: { id: 'msg_1', model: 'm', usage: { input_tokens: 5, output_tokens: 1 } } }),
      wire('content_block_start', { index: 0, content_block: { ...BASH_CALL, input: {} } }),
      wire('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"command": "python -c \\"print' } }),
      wire('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '(2+2)\\""}' } }),
      wire('content_block_stop', { index: 0 }),
      wire('content_block_start', { index: 1, content_block: BASH_RESULT }),
      wire('content_block_stop', { index: 1 }),
    ].flatMap((event) => decoder.push(event));
    const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join('');
    expect(text).to.equal(RENDERED);
  });
});
