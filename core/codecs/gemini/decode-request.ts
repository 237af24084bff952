import type {
  UnifiedBuiltinTool,
  UnifiedRequest,
  UnifiedResponseFormat,
  UnifiedTool,
  UnifiedToolChoice,
} from '../../unified/unified-request';
import type { DecodeContext } from '../codec';
import { decodeContents } from './decode-contents';
import { decodeGeminiSchema } from './decode-gemini-schema';
import { decodeThinkingConfig } from './decode-thinking-config';
import { GEMINI_NOTES } from './gemini-notes';
import type { GeminiGenerateContentRequest, GeminiGenerationConfig, GeminiTool, GeminiToolConfig } from './gemini-types';
import { invalidField } from './invalid-field';
import { normalizeGeminiKeys } from './normalize-gemini-keys';
import { withPortableFunctionNames } from '../shared/portable-function-names';
import { validateCountRequest, validateRequest } from './request-schema';

/** Top-level fields with a unified meaning; every other field goes to `extensions.gemini` as it came. */
const DECODED_FIELDS = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig', 'model']);

/** generationConfig fields with a unified meaning; the rest stay in `extensions.gemini.generationConfig`. */
const DECODED_GENERATION_FIELDS = new Set([
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'stopSequences',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'imageConfig',
  'thinkingConfig',
]);

const MODALITIES: Readonly<Record<string, 'text' | 'image' | 'audio'>> = { TEXT: 'text', IMAGE: 'image', AUDIO: 'audio' };

interface DecodedTools {
  tools?: UnifiedTool[];
  builtinTools?: UnifiedBuiltinTool[];
  /** Names of functions declared with `parametersJsonSchema`. */
  jsonSchemaTools: string[];
  /** Tool entries with no unified meaning (urlContext, fileSearch …), kept for a Gemini upstream. */
  otherTools: GeminiTool[];
}

function decodeTools(entries: GeminiTool[] | undefined): DecodedTools {
  const tools: UnifiedTool[] = [];
  const builtinTools: UnifiedBuiltinTool[] = [];
  const jsonSchemaTools: string[] = [];
  const otherTools: GeminiTool[] = [];
  const addBuiltin = (tool: UnifiedBuiltinTool): void => {
    if (!builtinTools.some((b) => b.type === tool.type)) builtinTools.push(tool);
  };
  for (const entry of entries ?? []) {
    const rest: GeminiTool = {};
    for (const [key, value] of Object.entries(entry)) {
      if (key === 'functionDeclarations') {
        for (const fd of entry.functionDeclarations ?? []) {
          const parameters = fd.parametersJsonSchema ?? (fd.parameters ? decodeGeminiSchema(fd.parameters) : { type: 'object', properties: {} });
          if (fd.parametersJsonSchema) jsonSchemaTools.push(fd.name);
          tools.push({ name: fd.name, ...(fd.description !== undefined ? { description: fd.description } : {}), parameters });
        }
      } else if (key === 'googleSearch' || key === 'googleSearchRetrieval' || key === 'webSearch') {
        // `webSearch` is the spec's name for Google Search grounding (DECISIONS §7).
        addBuiltin({ type: 'web_search' });
      } else if (key === 'codeExecution') {
        addBuiltin({ type: 'code_execution' });
      } else {
        rest[key] = value;
      }
    }
    if (Object.keys(rest).length > 0) otherTools.push(rest);
  }
  return {
    ...(tools.length > 0 ? { tools } : {}),
    ...(builtinTools.length > 0 ? { builtinTools } : {}),
    jsonSchemaTools,
    otherTools,
  };
}

/** `AUTO`/`ANY`/`NONE` → unified; returns `keep: true` when the config says more than that (kept verbatim). */
function decodeToolChoice(config: GeminiToolConfig | undefined): { toolChoice?: UnifiedToolChoice; keep: boolean } {
  if (!config) return { keep: false };
  const fcc = config.functionCallingConfig;
  const names = fcc?.allowedFunctionNames ?? [];
  const extraKeys = Object.keys(config).some((k) => k !== 'functionCallingConfig');
  switch (fcc?.mode) {
    case 'ANY':
      return names.length === 1 ? { toolChoice: { name: names[0] }, keep: extraKeys } : { toolChoice: 'required', keep: extraKeys || names.length > 1 };
    case 'NONE':
      return { toolChoice: 'none', keep: extraKeys };
    case 'AUTO':
      return { toolChoice: 'auto', keep: extraKeys || names.length > 0 };
    default:
      // VALIDATED (schema-constrained AUTO) and unspecified modes only make sense to Gemini itself.
      return { toolChoice: fcc?.mode === 'VALIDATED' ? 'auto' : undefined, keep: true };
  }
}

/**
 * `ANY` or `VALIDATED` with `allowedFunctionNames`: the model may call only those (and must call one, with `ANY`).
 * Other formats can force "some tool" or one named tool, not a subset, so only the allowed functions are declared
 * to them (a Gemini upstream still gets the config itself).
 */
function allowedTools(tools: UnifiedTool[] | undefined, config: GeminiToolConfig | undefined): UnifiedTool[] | undefined {
  const fcc = config?.functionCallingConfig;
  const names = fcc?.allowedFunctionNames ?? [];
  if (!tools || (fcc?.mode !== 'ANY' && fcc?.mode !== 'VALIDATED') || names.length === 0) return tools;
  const allowed = tools.filter((tool) => names.includes(tool.name));
  if (allowed.length === 0) throw invalidField('toolConfig.functionCallingConfig.allowedFunctionNames', 'names no declared function');
  return allowed;
}

function decodeResponseFormat(config: GeminiGenerationConfig): UnifiedResponseFormat | undefined {
  const mime = config.responseMimeType?.toLowerCase();
  if (mime === 'application/json') {
    if (config.responseJsonSchema) return { type: 'json_schema', schema: config.responseJsonSchema };
    if (config.responseSchema) return { type: 'json_schema', schema: decodeGeminiSchema(config.responseSchema) };
    return { type: 'json_object' };
  }
  if (mime === 'text/plain') return { type: 'text' };
  return undefined;
}

function decodeModalities(values: string[] | undefined): Array<'text' | 'image' | 'audio'> | undefined {
  if (!values) return undefined;
  return values.map((value, i) => {
    const modality = MODALITIES[value.toUpperCase()];
    if (!modality) throw invalidField(`generationConfig.responseModalities[${i}]`, 'must be one of "TEXT", "IMAGE", "AUDIO"');
    return modality;
  });
}

function modelFrom(ctx: DecodeContext | undefined, body: GeminiGenerateContentRequest): string {
  const raw = ctx?.model ?? (typeof body.model === 'string' ? body.model : undefined);
  if (!raw) throw invalidField('model', 'is required (give it in the path: /v1beta/models/{model}:generateContent)');
  return raw.replace(/^models\//, '');
}

/**
 * Gemini `GenerateContentRequest` → unified. The model and stream mode come from the path (ctx). Function names
 * other upstreams refuse (`files.read`) are made portable; the Gemini encoders give the client its own back.
 * Both snake_case and camelCase field names are accepted. Throws GW_INVALID_REQUEST naming the field.
 */
export function decodeRequest(rawBody: unknown, ctx?: DecodeContext): UnifiedRequest {
  const body = (ctx?.countOnly ? validateCountRequest : validateRequest)(normalizeGeminiKeys(rawBody));
  const gen = body.generationConfig ?? {};
  // A translation answers one candidate; asking for more would silently get fewer (a count answers none).
  if (!ctx?.countOnly && typeof gen.candidateCount === 'number' && gen.candidateCount > 1) {
    throw invalidField('generationConfig.candidateCount', 'only one candidate (candidateCount: 1) can be answered on this platform');
  }
  const system = (body.systemInstruction?.parts ?? []).map((part, i) => {
    if (part.text === undefined) throw invalidField(`systemInstruction.parts[${i}]`, 'only text parts are supported');
    return part.text;
  });
  const { tools: declared, builtinTools, jsonSchemaTools, otherTools } = decodeTools(body.tools);
  const { toolChoice, keep: keepToolConfig } = decodeToolChoice(body.toolConfig);
  const tools = allowedTools(declared, body.toolConfig);

  const extensions: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (!DECODED_FIELDS.has(key)) extensions[key] = value;
  const otherGeneration = Object.fromEntries(Object.entries(gen).filter(([key]) => !DECODED_GENERATION_FIELDS.has(key)));
  const { aspectRatio, ...otherImageConfig } = gen.imageConfig ?? {};
  if (Object.keys(otherImageConfig).length > 0) otherGeneration.imageConfig = otherImageConfig;
  const responseFormat = decodeResponseFormat(gen);
  if (gen.responseMimeType !== undefined && responseFormat === undefined) {
    // e.g. `text/x.enum` with an enum schema: only a Gemini upstream understands it.
    otherGeneration.responseMimeType = gen.responseMimeType;
    if (gen.responseSchema) otherGeneration.responseSchema = gen.responseSchema;
    if (gen.responseJsonSchema) otherGeneration.responseJsonSchema = gen.responseJsonSchema;
  }
  if (Object.keys(otherGeneration).length > 0) extensions.generationConfig = otherGeneration;
  if (otherTools.length > 0) extensions.tools = otherTools;
  if (keepToolConfig && body.toolConfig) extensions.toolConfig = body.toolConfig;
  if (jsonSchemaTools.length > 0) extensions[GEMINI_NOTES.jsonSchemaTools] = jsonSchemaTools;

  const reasoning = decodeThinkingConfig(gen.thinkingConfig);
  const outputModalities = decodeModalities(gen.responseModalities);
  const request: UnifiedRequest = {
    model: modelFrom(ctx, body),
    system,
    messages: decodeContents(body.contents),
    stream: ctx?.stream ?? false,
  };
  if (tools) request.tools = tools;
  if (builtinTools) request.builtinTools = builtinTools;
  if (toolChoice) request.toolChoice = toolChoice;
  if (gen.maxOutputTokens !== undefined) request.maxTokens = gen.maxOutputTokens;
  if (gen.temperature !== undefined) request.temperature = gen.temperature;
  if (gen.topP !== undefined) request.topP = gen.topP;
  if (gen.topK !== undefined) request.topK = gen.topK;
  if (gen.stopSequences !== undefined) request.stop = gen.stopSequences;
  if (gen.seed !== undefined) request.seed = gen.seed;
  if (gen.presencePenalty !== undefined) request.presencePenalty = gen.presencePenalty;
  if (gen.frequencyPenalty !== undefined) request.frequencyPenalty = gen.frequencyPenalty;
  if (responseFormat) request.responseFormat = responseFormat;
  if (reasoning) request.reasoning = reasoning;
  if (outputModalities) request.outputModalities = outputModalities;
  if (typeof aspectRatio === 'string') request.imageAspectRatio = aspectRatio;
  if (Object.keys(extensions).length > 0) request.extensions = { gemini: extensions };
  return withPortableFunctionNames(request);
}
