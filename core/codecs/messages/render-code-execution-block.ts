type Json = Record<string, unknown>;

/** Claude's server tools that run code (code execution, 2025-05-22 and 2025-08-25). */
const CODE_TOOLS: Readonly<Record<string, (input: Json) => { language: string; code: string } | undefined>> = {
  code_execution: (input) => (typeof input.code === 'string' ? { language: 'python', code: input.code } : undefined),
  bash_code_execution: (input) => (typeof input.command === 'string' ? { language: 'bash', code: input.command } : undefined),
  text_editor_code_execution: (input) => {
    if (typeof input.command !== 'string') return undefined;
    const lines = [`${input.command}${typeof input.path === 'string' ? ` ${input.path}` : ''}`];
    if (typeof input.file_text === 'string') lines.push(input.file_text);
    if (typeof input.old_str === 'string') lines.push(`- ${input.old_str}`, `+ ${typeof input.new_str === 'string' ? input.new_str : ''}`);
    return { language: 'text', code: lines.join('\n') };
  },
};

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fenced(language: string, body: string): string {
  return `\n\`\`\`${language}\n${body.replace(/\n$/, '')}\n\`\`\`\n`;
}

/** Whether a block is Claude's call of a code-running server tool (its input may still stream). */
export function isCodeExecutionCall(block: Json): boolean {
  return block.type === 'server_tool_use' && typeof block.name === 'string' && block.name in CODE_TOOLS;
}

/**
 * Code Claude ran has no unified meaning; as text every client sees it, as Gemini's code execution parts are: the
 * code fenced in its language (a bash command, a file edit). Undefined for another tool or an input without code.
 */
export function renderCodeExecutionCall(name: string, input: unknown): string | undefined {
  const read = CODE_TOOLS[name]?.(isObject(input) ? input : {});
  return read ? fenced(read.language, read.code) : undefined;
}

/**
 * The result of code Claude ran (`code_execution_tool_result`, `bash_…`, `text_editor_…`), as a fenced `output`
 * block: its output, a failing exit code, or the tool's error. Undefined for a block of another kind.
 */
export function renderCodeExecutionResult(block: Json): string | undefined {
  if (typeof block.type !== 'string' || !block.type.endsWith('code_execution_tool_result')) return undefined;
  const content = isObject(block.content) ? block.content : {};
  if (typeof content.error_code === 'string') return fenced('output', `error: ${content.error_code}`);
  const out: string[] = [];
  for (const stream of [content.stdout, content.stderr, content.content]) if (typeof stream === 'string' && stream !== '') out.push(stream.replace(/\n$/, ''));
  if (typeof content.return_code === 'number' && content.return_code !== 0) out.push(`exit code ${content.return_code}`);
  return fenced('output', out.join('\n'));
}

/** A whole block's text when it is code Claude ran or its result. */
export function renderCodeExecutionBlock(block: Json): string | undefined {
  if (isCodeExecutionCall(block)) return renderCodeExecutionCall(block.name as string, block.input);
  return renderCodeExecutionResult(block);
}
