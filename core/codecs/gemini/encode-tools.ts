import type { UnifiedRequest } from '../../unified/unified-request';
import { encodeGeminiSchema } from './encode-gemini-schema';
import type { GeminiFunctionDeclaration, GeminiTool, GeminiToolConfig } from './gemini-types';

export interface EncodedTools {
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
}

function encodeDeclaration(tool: NonNullable<UnifiedRequest['tools']>[number], jsonSchemaTools: ReadonlySet<string>): GeminiFunctionDeclaration {
  const declaration: GeminiFunctionDeclaration = { name: tool.name };
  if (tool.description !== undefined) declaration.description = tool.description;
  if (jsonSchemaTools.has(tool.name)) {
    declaration.parametersJsonSchema = tool.parameters;
    return declaration;
  }
  const parameters = encodeGeminiSchema(tool.parameters);
  // Gemini rejects an OBJECT schema without properties ("should be non-empty"): a function without
  // arguments (`{type: object}` or `{}`) is declared without `parameters`.
  const argumentless = parameters.properties === undefined && parameters.anyOf === undefined && (parameters.type === undefined || parameters.type === 'object');
  if (!argumentless) declaration.parameters = parameters;
  return declaration;
}

/**
 * Unified tools → one `functionDeclarations` entry (parameters pruned to the Gemini Schema subset, or
 * `parametersJsonSchema` untouched when the client declared them so), `{googleSearch: {}}`,
 * `{codeExecution: {}}`, plus tool entries a Gemini client sent that have no unified meaning.
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
  const declarations = (request.tools ?? []).map((tool) => encodeDeclaration(tool, jsonSchemaTools));
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
