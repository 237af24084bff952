import type { UnifiedRequest } from '../../unified/unified-request';
import { refuseUntranslatableFields } from '../shared/refuse-untranslatable-fields';
import type { Converted } from '../codec';
import { isPlainObject } from '../shared/is-plain-object';
import { renameFunctions } from '../shared/portable-function-names';
import { encodeContents } from './encode-contents';
import { encodeGenerationConfig } from './encode-generation-config';
import { encodeTools } from './encode-tools';
import { foldSystemInstruction, TAKES_NO_SYSTEM_INSTRUCTION } from './fold-system-instruction';
import { geminiFunctionNames } from './gemini-function-names';
import { GEMINI_NOTES } from './gemini-notes';
import type { GeminiTool, GeminiToolConfig } from './gemini-types';
import { invalidField } from './invalid-field';
import { openWithUserTurn } from './open-with-user-turn';
import { systemOnlyAsUserTurn } from '../shared/system-only-request';

/** Extension keys the encoder merges itself instead of copying. */
const MERGED_EXTENSIONS = new Set<string>(['generationConfig', 'tools', 'toolConfig', ...Object.values(GEMINI_NOTES)]);

/**
 * Unified → Gemini `GenerateContentRequest` body (camelCase). The model is not in the body: the
 * caller puts it in the path (`geminiModelPath`). Fields a Gemini client sent with no unified meaning
 * (`extensions.gemini`: safetySettings, cachedContent …) are copied back. Function names Gemini refuses go renamed
 * (geminiFunctionNames; a platform gives its client the names back with requestFunctionNames).
 */
export function encodeRequest(asked: UnifiedRequest): Converted<Record<string, unknown>> {
  const unified = systemOnlyAsUserTurn(asked);
  refuseUntranslatableFields(unified, 'gemini');
  const renames = geminiFunctionNames(unified);
  const request = renameFunctions(unified, renames);
  const warnings: string[] = [];
  const ext = request.extensions?.gemini ?? {};
  const contents = encodeContents(request.messages, request.model, warnings);
  if (contents.length === 0) {
    throw invalidField('messages', 'Gemini needs at least one user or model turn with content');
  }
  const jsonSchemaNote = ext[GEMINI_NOTES.jsonSchemaTools];
  const jsonSchemaTools = new Set(Array.isArray(jsonSchemaNote) ? jsonSchemaNote.filter((n): n is string => typeof n === 'string').map((n) => renames.get(n) ?? n) : []);
  // Kept by the Gemini decoder after validation: same shapes as the wire types.
  const otherTools = Array.isArray(ext.tools) ? (ext.tools.filter(isPlainObject) as GeminiTool[]) : [];
  const keptToolConfig = isPlainObject(ext.toolConfig) ? (ext.toolConfig as GeminiToolConfig) : undefined;
  const { tools, toolConfig } = encodeTools(request, jsonSchemaTools, otherTools, keptToolConfig, warnings);
  const generationConfig = encodeGenerationConfig(request, isPlainObject(ext.generationConfig) ? ext.generationConfig : undefined, warnings);

  const system = request.system.filter((text) => text !== '');
  const folded = system.length > 0 && TAKES_NO_SYSTEM_INSTRUCTION.test(request.model);
  const body: Record<string, unknown> = { contents: openWithUserTurn(folded ? foldSystemInstruction(contents, system) : contents) };
  if (system.length > 0 && !folded) body.systemInstruction = { parts: system.map((text) => ({ text })) };
  if (tools) body.tools = tools;
  if (toolConfig) body.toolConfig = toolConfig;
  for (const [key, value] of Object.entries(ext)) if (!MERGED_EXTENSIONS.has(key)) body[key] = value;
  if (generationConfig) body.generationConfig = generationConfig;

  if (request.parallelToolCalls === false) warnings.push('parallelToolCalls: Gemini cannot forbid parallel calls; dropped');
  if (request.user !== undefined) warnings.push('user: Gemini has no end-user field; dropped');
  return { value: body, warnings };
}
