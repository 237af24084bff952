import type { UnifiedRequest } from '../../unified/unified-request';
import { isPlainObject } from '../shared/is-plain-object';
import { encodeThinkingConfig } from './encode-thinking-config';
import type { GeminiGenerationConfig } from './gemini-types';
import { invalidField } from './invalid-field';
import { isPreGemini3Model } from './is-pre-gemini3-model';

/**
 * Gemini's GenerationConfig holds at most 5 stop sequences and answers 400 to more; Anthropic clients may send more.
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerationConfig
 */
const MAX_STOP_SEQUENCES = 5;

/**
 * Unified sampling, output format, modalities and reasoning → `generationConfig`, merged over the
 * generationConfig fields a Gemini client sent that have no unified meaning (`kept`).
 * A JSON schema goes as `responseJsonSchema` (full JSON Schema), never pruned. Before Gemini 3 a model refuses JSON
 * output beside function declarations or a built-in tool (400 "Function calling (Tool use) with a response mime type:
 * 'application/json' is unsupported"): there the tools win (an agent's turn needs them; Codex's `--output-schema`
 * sends both) and the output format is dropped with a warning. More stop sequences than Gemini takes are refused
 * (GW_INVALID_REQUEST): dropping some would let the answer run past a stop the client relies on.
 */
export function encodeGenerationConfig(request: UnifiedRequest, kept: Record<string, unknown> | undefined, warnings: string[] = []): GeminiGenerationConfig | undefined {
  const out: GeminiGenerationConfig = { ...(kept ?? {}) };
  if (request.maxTokens !== undefined) out.maxOutputTokens = request.maxTokens;
  if (request.temperature !== undefined) out.temperature = request.temperature;
  if (request.topP !== undefined) out.topP = request.topP;
  if (request.topK !== undefined) out.topK = request.topK;
  if (request.stop !== undefined && request.stop.length > MAX_STOP_SEQUENCES) {
    throw invalidField('stop', `Gemini takes at most ${MAX_STOP_SEQUENCES} stop sequences, ${request.stop.length} were given`);
  }
  if (request.stop !== undefined && request.stop.length > 0) out.stopSequences = request.stop;
  if (request.seed !== undefined) out.seed = request.seed;
  if (request.presencePenalty !== undefined) out.presencePenalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) out.frequencyPenalty = request.frequencyPenalty;
  let format = request.responseFormat;
  const tools = (request.tools?.length ?? 0) + (request.builtinTools?.length ?? 0);
  if (format && format.type !== 'text' && tools > 0 && isPreGemini3Model(request.model)) {
    warnings.push(`responseFormat: ${request.model} cannot answer in JSON while tools are declared; dropped`);
    format = undefined;
  }
  if (format?.type === 'json_schema') {
    out.responseMimeType = 'application/json';
    out.responseJsonSchema = format.schema;
  } else if (format?.type === 'json_object') {
    out.responseMimeType = 'application/json';
  }
  if (request.outputModalities && request.outputModalities.length > 0) {
    out.responseModalities = request.outputModalities.map((m) => m.toUpperCase());
  }
  if (request.imageAspectRatio !== undefined) {
    out.imageConfig = { ...(isPlainObject(out.imageConfig) ? out.imageConfig : {}), aspectRatio: request.imageAspectRatio };
  }
  const thinking = encodeThinkingConfig(request.reasoning, request.model);
  if (thinking) out.thinkingConfig = thinking;
  return Object.keys(out).length > 0 ? out : undefined;
}
