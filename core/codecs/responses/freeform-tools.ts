import type { RequestEcho, UnifiedTool } from '../../unified/unified-request';

type Json = Record<string, unknown>;

/** A Responses `custom` tool as a client declares it (OAS `CustomTool`). */
export interface ResponsesCustomTool {
  type: 'custom';
  name: string;
  description?: string | null;
  format?: Record<string, unknown> | null;
}

/** What the model is told about the one argument that carries a freeform tool's input. */
function describeInput(format: Record<string, unknown> | undefined): string {
  const base = 'The whole input of this tool, as plain text (not JSON).';
  if (format?.type !== 'grammar' || typeof format.definition !== 'string') return base;
  const syntax = typeof format.syntax === 'string' ? `${format.syntax} ` : '';
  return `${base} It must match this ${syntax}grammar:\n${format.definition}`;
}

/**
 * Responses `custom` tool → a unified function of one string argument, `input`; its grammar, which no other upstream
 * can enforce, goes into that argument's description so the model still writes to it.
 */
export function decodeCustomTool(tool: ResponsesCustomTool, namespace?: string): UnifiedTool {
  const format = tool.format ?? undefined;
  const out: UnifiedTool = {
    name: tool.name,
    parameters: {
      type: 'object',
      properties: { input: { type: 'string', description: describeInput(format) } },
      required: ['input'],
      additionalProperties: false,
    },
    freeform: format ? { format } : {},
  };
  if (typeof tool.description === 'string') out.description = tool.description;
  if (namespace !== undefined) out.namespace = namespace;
  return out;
}

/** A freeform tool back in Responses shape, for a Responses upstream (which enforces the grammar itself). */
export function encodeCustomTool(tool: UnifiedTool): Json {
  const out: Json = { type: 'custom', name: tool.namespaceMember ?? tool.name };
  if (tool.description !== undefined) out.description = tool.description;
  if (tool.freeform?.format !== undefined) out.format = tool.freeform.format;
  return out;
}

/** The freeform tool a call names, if it names one. */
export function freeformToolNamed(request: Pick<RequestEcho, 'tools'>, name: string): UnifiedTool | undefined {
  return request.tools?.find((tool) => tool.freeform !== undefined && tool.name === name);
}

/** The start of arguments `{"input": "…` cut short (the token limit): what follows is the input's JSON text so far. */
const CUT_INPUT = /^\s*\{\s*"input"\s*:\s*"/;

/**
 * A freeform call's input from the unified arguments `{"input": "…"}`; arguments cut short by the token limit give
 * the input as far as it came (the wrapper is the gateway's, no client should see it). Arguments of another shape (a
 * model that ignored the schema) go through as they are: the client's tool reports what it cannot apply.
 */
export function freeformInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as Json).input === 'string') return (parsed as Json).input as string;
  } catch {
    const cut = CUT_INPUT.exec(args);
    if (cut) return readCutString(args.slice(cut[0].length)) ?? args;
  }
  return args;
}

/** The text of a JSON string's body cut short (its closing quote, or the object's brace after it, missing): a dangling escape is left out. */
function readCutString(cut: string): string | undefined {
  const closing = /"\s*$/.exec(cut);
  const body = closing && !precededByOddBackslashes(cut, closing.index) ? cut.slice(0, closing.index) : cut;
  // An escape cut in two (`\`, `\u00`) cannot be read: it goes, with its backslash.
  const whole = body.replace(/\\(?:u[0-9a-fA-F]{0,3})?$/, (escape, offset: number) => (precededByOddBackslashes(body, offset) ? escape : ''));
  try {
    const text: unknown = JSON.parse(`"${whole}"`);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the backslash at `offset` is itself escaped (an odd run of backslashes before it). */
function precededByOddBackslashes(text: string, offset: number): boolean {
  let count = 0;
  for (let at = offset - 1; at >= 0 && text[at] === '\\'; at--) count++;
  return count % 2 === 1;
}
