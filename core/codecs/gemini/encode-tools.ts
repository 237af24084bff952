import type { UnifiedRequest } from '../../unified/unified-request';
import { describeTool } from '../shared/describe-tool';
import { isPlainObject } from '../shared/is-plain-object';
import { encodeGeminiSchema } from './encode-gemini-schema';
import type { GeminiFunctionDeclaration, GeminiTool, GeminiToolConfig } from './gemini-types';
import { uniqueTools } from '../shared/unique-tools';

export interface EncodedTools {
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
}

function encodeDeclaration(tool: NonNullable<UnifiedRequest['tools']>[number], jsonSchemaTools: ReadonlySet<string>): GeminiFunctionDeclaration {
  const declaration: GeminiFunctionDeclaration = { name: tool.name };
  const description = describeTool(tool);
  if (description !== undefined) declaration.description = description;
  if (jsonSchemaTools.has(tool.name)) {
    declaration.parametersJsonSchema = tool.parameters;
    return declaration;
  }
  const parameters = encodeGeminiSchema(tool.parameters);
  if (!parameters) {
    // Too large once its `$ref`s are inlined: whole, where Gemini reads them.
    declaration.parametersJsonSchema = tool.parameters;
    return declaration;
  }
  // Gemini rejects an OBJECT schema without properties ("should be non-empty"): a function without
  // arguments (`{type: object}` or `{}`) is declared without `parameters`.
  const argumentless = parameters.properties === undefined && parameters.anyOf === undefined && (parameters.type === undefined || parameters.type === 'object');
  if (argumentless ? isOpenObject(tool.parameters) : hasShapelessNode(parameters)) {
    // A map, a free-form object, a recursive `$ref` or a value of any type has no form in the subset (it would be that
    // refused OBJECT without properties, a node without a type, or no arguments at all): the JSON Schema goes whole,
    // where Gemini reads them.
    declaration.parametersJsonSchema = tool.parameters;
  } else if (!argumentless) declaration.parameters = parameters;
  return declaration;
}

/** An object schema whose arguments are open (`additionalProperties` a schema or true): a map, not no arguments. */
function isOpenObject(schema: Record<string, unknown>): boolean {
  return schema.additionalProperties === true || isPlainObject(schema.additionalProperties);
}

/**
 * Whether a pruned schema holds, below its root, a node Gemini's `parameters` refuses: an OBJECT with no properties
 * ("should be non-empty"), or a node with neither a type nor `anyOf` ("type: must be specified when not using one_of,
 * any_of or all_of fields"), as pydantic's `Any` (`{title}`), zod's `any` (`{}`), a union of number literals, a
 * typeless number enum, an array without `items` or a branch holding only `required` prune to.
 */
function hasShapelessNode(schema: Record<string, unknown>, root = true): boolean {
  if (!root && schema.type === undefined && schema.anyOf === undefined) return true;
  if (!root && schema.type === 'object' && schema.properties === undefined) return true;
  const children = [
    ...(isPlainObject(schema.properties) ? Object.values(schema.properties) : []),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    schema.items,
  ];
  return children.some((child) => isPlainObject(child) && hasShapelessNode(child, false));
}

/**
 * Unified tools → one `functionDeclarations` entry (parameters pruned to the Gemini Schema subset, or
 * `parametersJsonSchema` untouched when the client declared them so or the subset cannot hold them),
 * `{googleSearch: {}}`, `{codeExecution: {}}`, plus tool entries a Gemini client sent that have no unified meaning.
 * Gemini refuses a built-in tool beside function declarations (400 "Tool use with function calling is
 * unsupported"; Gemini 3 takes the pair only with an opt-in whose answers no other format can carry): with functions
 * declared, the built-in is dropped with a warning. Codex, which declares both, searches through `/v1/alpha/search`.
 * Tool choice → `functionCallingConfig`; a config the decoder kept verbatim wins.
 */
export function encodeTools(
  request: UnifiedRequest,
  jsonSchemaTools: ReadonlySet<string>,
  otherTools: GeminiTool[],
  keptToolConfig: GeminiToolConfig | undefined,
  warnings: string[] = [],
): EncodedTools {
  const tools: GeminiTool[] = [];
  const declarations = (uniqueTools(request.tools, warnings) ?? []).map((tool) => encodeDeclaration(tool, jsonSchemaTools));
  if (declarations.length > 0) tools.push({ functionDeclarations: declarations });
  for (const builtin of request.builtinTools ?? []) {
    if (declarations.length > 0) warnings.push(`tools: ${builtin.type} dropped, Gemini does not combine a built-in tool with function calling`);
    else tools.push(builtin.type === 'web_search' ? { googleSearch: {} } : { codeExecution: {} });
  }
  tools.push(...otherTools);

  let toolConfig: GeminiToolConfig | undefined = keptToolConfig;
  const choice = request.toolChoice;
  if (!toolConfig && choice !== undefined && declarations.length > 0) {
    if (choice === 'auto') toolConfig = { functionCallingConfig: { mode: 'AUTO' } };
    else if (choice === 'none') toolConfig = { functionCallingConfig: { mode: 'NONE' } };
    else if (choice === 'required') toolConfig = { functionCallingConfig: { mode: 'ANY' } };
    else toolConfig = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  }
  return { ...(tools.length > 0 ? { tools } : {}), ...(toolConfig ? { toolConfig } : {}) };
}
