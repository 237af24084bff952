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

/**
 * A freeform call's input from the unified arguments `{"input": "…"}`. Arguments of another shape (a model that
 * ignored the schema) go through as they are: the client's tool reports what it cannot apply.
 */
export function freeformInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as Json).input === 'string') return (parsed as Json).input as string;
  } catch {
    // Not JSON: taken as the input itself.
  }
  return args;
}
