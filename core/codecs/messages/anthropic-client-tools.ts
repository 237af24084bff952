import type { UnifiedTool } from '../../unified/unified-request';

const str = { type: 'string' };
const int = { type: 'integer' };
const viewRange = { type: 'array', items: int, minItems: 2, maxItems: 2, description: 'First and last line to view (1-based; -1 for the end)' };

/**
 * Anthropic-defined tools the client runs itself (bash, the text editor, memory): Claude knows their input without a
 * schema; any other model needs one. These are the inputs Anthropic documents for them, so that a Messages client's
 * typed tool reaches another format's upstream as the function it is. A Claude upstream still gets the typed tool.
 */
const SCHEMAS: ReadonlyArray<{ type: RegExp; description: string; parameters: Record<string, unknown> }> = [
  {
    type: /^bash_/,
    description: 'Run a command in a persistent bash shell session; restart: true restarts the session.',
    parameters: { type: 'object', properties: { command: str, restart: { type: 'boolean' } } },
  },
  {
    type: /^text_editor_/,
    description:
      'View, create and edit text files. view: a file with line numbers (view_range to limit) or a directory listing; create: a new file with file_text; ' +
      'str_replace: replace old_str, which must occur exactly once, with new_str; insert: new_str after line insert_line (0 = the start).',
    parameters: {
      type: 'object',
      properties: { command: { type: 'string', enum: ['view', 'create', 'str_replace', 'insert', 'undo_edit'] }, path: str, file_text: str, old_str: str, new_str: str, insert_line: int, view_range: viewRange },
      required: ['command', 'path'],
    },
  },
  {
    type: /^memory_/,
    description:
      'Your memory directory (/memories): view a file or directory, create a file (file_text), str_replace (old_str → new_str), ' +
      'insert insert_text after insert_line, delete a path, rename old_path to new_path.',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', enum: ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'] },
        path: str, file_text: str, old_str: str, new_str: str, insert_line: int, insert_text: str, view_range: viewRange, old_path: str, new_path: str,
      },
      required: ['command'],
    },
  },
];

/** The function another format's model is given for an Anthropic-defined client tool; undefined for any other type. */
export function anthropicClientTool(type: string, name: string): UnifiedTool | undefined {
  const known = SCHEMAS.find((schema) => schema.type.test(type));
  return known ? { name, description: known.description, parameters: known.parameters } : undefined;
}
