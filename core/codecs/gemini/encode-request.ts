import type { UnifiedRequest } from '../../unified/unified-request';
import { refuseUntranslatableFields } from '../shared/refuse-untranslatable-fields';
import type { Converted } from '../codec';
import { isPlainObject } from '../shared/is-plain-object';
import { encodeContents } from './encode-contents';
import { encodeGenerationConfig } from './encode-generation-config';
import { encodeTools } from './encode-tools';
import { foldSystemInstruction, TAKES_NO_SYSTEM_INSTRUCTION } from './fold-system-instruction';
import { GEMINI_NOTES } from './gemini-notes';
import type { GeminiTool, GeminiToolConfig } from './gemini-types';
import { invalidField } from './invalid-field';

/** Extension keys the encoder merges itself instead of copying. */
const MERGED_EXTENSIONS = new Set<string>(['generationConfig', 'tools', 'toolConfig', ...Object.values(GEMINI_NOTES)]);

/**
 * Unified → Gemini `GenerateContentRequest` body (camelCase). The model is not in the body: the
 * caller puts it in the path (`geminiModelPath`). Fields a Gemini client sent with no unified meaning
 * (`extensions.gemini`: safetySettings, cachedContent …) are copied back.
 */
export function encodeRequest(request: UnifiedRequest): Converted<Record<string, unknown>> {
  refuseUntranslatableFields(request, 'gemini');
  const warnings: string[] = [];
  const ext = request.extensions?.gemini ?? {};
  const contents = encodeContents(request.messages, request.model, warnings);
  if (contents.length === 0) {
    throw invalidField('messages', 'Gemini needs at least one user or model turn with content');
  }
  const jsonSchemaNote = ext[GEMINI_NOTES.jsonSchemaTools];
  const jsonSchemaTools = new Set(Array.isArray(jsonSchemaNote) ? jsonSchemaNote.filter((n): n is string => typeof n === 'string') : []);
  // Kept by the Gemini decoder after validation: same shapes as the wire types.
  const otherTools = Array.isArray(ext.tools) ? (ext.tools.filter(isPlainObject) as GeminiTool[]) : [];
  const keptToolConfig = isPlainObject(ext.toolConfig) ? (ext.toolConfig as GeminiToolConfig) : undefined;
  const { tools, toolConfig } = encodeTools(request, jsonSchemaTools, otherTools, keptToolConfig, warnings);
  const generationConfig = encodeGenerationConfig(request, isPlainObject(ext.generationConfig) ? ext.generationConfig : undefined, warnings);

  const body: Record<string, unknown> = { contents };
  const system = request.system.filter((text) => text !== '');
  if (system.length > 0 && TAKES_NO_SYSTEM_INSTRUCTION.test(request.model)) body.contents = foldSystemInstruction(contents, system);
  else if (system.length > 0) body.systemInstruction = { parts: system.map((text) => ({ text })) };
  if (tools) body.tools = tools;
  if (toolConfig) body.toolConfig = toolConfig;
  for (const [key, value] of Object.entries(ext)) if (!MERGED_EXTENSIONS.has(key)) body[key] = value;
  if (generationConfig) body.generationConfig = generationConfig;

  if (request.parallelToolCalls === false) warnings.push('parallelToolCalls: Gemini cannot forbid parallel calls; dropped');
  if (request.user !== undefined) warnings.push('user: Gemini has no end-user field; dropped');
  return { value: body, warnings };
}
