import { credentialBehaviour, estimateTokens } from './directives';
import { handleGeminiMedia, handleGeminiStorage } from './gemini-media';
import { API_KEY_INVALID, INTERNAL, resourceExhausted, sendGeminiError, statusError } from './gemini-errors';
import { headerValue, isRecord, openStream, playFrames, safeDecode, sendJson, sseData, type Frame } from './http-util';
import { planAnswer, simId, type Prompt, type Scenario } from './scenario';
import type { Exchange } from './types';

/** Gemini API: `models/{m}:generateContent`, `:streamGenerateContent` (JSON array or `?alt=sse`), `:countTokens`, model list. */

const MODELS = [
  { id: 'gemini-2.5-flash', displayName: 'Gemini 2.5 Flash', outputTokenLimit: 65536 },
  { id: 'gemini-2.5-pro', displayName: 'Gemini 2.5 Pro', outputTokenLimit: 65536 },
  { id: 'gemini-3-flash-preview', displayName: 'Gemini 3 Flash Preview', outputTokenLimit: 65536 },
];

function modelResource(model: (typeof MODELS)[number]): Record<string, unknown> {
  return {
    name: `models/${model.id}`,
    version: '001',
    displayName: model.displayName,
    description: `${model.displayName} (simulated)`,
    inputTokenLimit: 1048576,
    outputTokenLimit: model.outputTokenLimit,
    supportedGenerationMethods: ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'],
    temperature: 1,
    topP: 0.95,
    topK: 64,
    maxTemperature: 2,
    thinking: true,
  };
}

function partsOf(content: unknown): Record<string, unknown>[] {
  return isRecord(content) && Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];
}

function partsText(parts: Record<string, unknown>[]): string {
  return parts.map((p) => (typeof p.text === 'string' && p.thought !== true ? p.text : '')).join('');
}

/** A single string field (`{"result": "..."}`, as translators wrap plain results) reads as that string. */
function functionResponseText(part: Record<string, unknown>): string {
  const call = isRecord(part.functionResponse) ? part.functionResponse : isRecord(part.function_response) ? part.function_response : {};
  const response = call.response;
  if (typeof response === 'string') return response;
  if (isRecord(response)) {
    const values = Object.values(response);
    if (values.length === 1 && typeof values[0] === 'string') return values[0];
  }
  return JSON.stringify(response ?? {});
}

function firstFunction(tools: unknown): Prompt['tool'] {
  if (!Array.isArray(tools)) return undefined;
  for (const tool of tools) {
    if (!isRecord(tool)) continue;
    const declarations = tool.functionDeclarations ?? tool.function_declarations;
    const first = Array.isArray(declarations) ? declarations.find(isRecord) : undefined;
    if (first && typeof first.name === 'string') {
      return { name: first.name, schema: first.parameters ?? first.parametersJsonSchema ?? first.parameters_json_schema };
    }
  }
  return undefined;
}

function isFunctionResponse(part: Record<string, unknown>): boolean {
  return isRecord(part.functionResponse) || isRecord(part.function_response);
}

function contentInputText(content: Record<string, unknown>): string {
  const parts = partsOf(content);
  return partsText(parts) + parts.filter(isFunctionResponse).map(functionResponseText).join('');
}

function toPrompt(body: Record<string, unknown>): Prompt {
  const contents = Array.isArray(body.contents) ? body.contents.filter(isRecord) : [];
  const lastParts = partsOf(contents.at(-1));
  const results = lastParts.filter(isFunctionResponse);
  const lastUser = [...contents].reverse().find((c) => c.role === undefined || c.role === 'user');
  const system = body.systemInstruction ?? body.system_instruction;
  return {
    lastText: results.length > 0 ? results.map(functionResponseText).join('\n') : partsText(partsOf(lastUser)),
    toolResult: results.length > 0,
    inputText: [partsText(partsOf(system)), ...contents.map(contentInputText)].filter(Boolean).join('\n'),
    tool: firstFunction(body.tools),
  };
}

interface Rendering {
  model: string;
  responseId: string;
  signature: string;
  scenario: Scenario;
}

function usage(r: Rendering, candidates: number, thoughts: number): Record<string, unknown> {
  const prompt = r.scenario.inputTokens;
  const out: Record<string, unknown> = {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates + thoughts,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
  };
  if (thoughts > 0) out.thoughtsTokenCount = thoughts;
  return out;
}

function response(r: Rendering, parts: Record<string, unknown>[], final: boolean, candidates: number, thoughts: number): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { parts, role: 'model' } };
  if (final) candidate.finishReason = 'STOP';
  candidate.index = 0;
  return { candidates: [candidate], usageMetadata: usage(r, candidates, thoughts), modelVersion: r.model, responseId: r.responseId };
}

function answerParts(r: Rendering, text: string, first: boolean): Record<string, unknown>[] {
  const { scenario } = r;
  if (scenario.toolCall) {
    return [{ functionCall: { name: scenario.toolCall.name, args: scenario.toolCall.args }, thoughtSignature: r.signature }];
  }
  return [first && scenario.thinking ? { text, thoughtSignature: r.signature } : { text }];
}

function fullResponse(r: Rendering): Record<string, unknown> {
  const { scenario } = r;
  const parts: Record<string, unknown>[] = scenario.thinking ? [{ text: scenario.thinking.text, thought: true }] : [];
  parts.push(...answerParts(r, scenario.text, true));
  return response(r, parts, true, scenario.outputTokens - scenario.thinkingTokens, scenario.thinkingTokens);
}

/** Each element is one GenerateContentResponse chunk (or a late error), usage cumulative. */
function streamElements(r: Rendering): { value: unknown; paced: boolean }[] {
  const { scenario } = r;
  const elements: { value: unknown; paced: boolean }[] = [];
  let thoughts = 0;
  for (const piece of scenario.thinking?.chunks ?? []) {
    thoughts += 1;
    elements.push({ value: response(r, [{ text: piece, thought: true }], false, 0, thoughts), paced: true });
  }
  if (scenario.midstreamError) {
    elements.push({ value: response(r, answerParts(r, scenario.textChunks[0], true), false, 1, thoughts), paced: true });
    elements.push({ value: { error: INTERNAL }, paced: true });
    return elements;
  }
  if (scenario.toolCall) {
    const count = scenario.toolCall.fragments.length;
    elements.push({ value: response(r, answerParts(r, '', true), true, count, thoughts), paced: true });
    return elements;
  }
  scenario.textChunks.forEach((piece, i) => {
    const final = i === scenario.textChunks.length - 1;
    elements.push({ value: response(r, answerParts(r, piece, i === 0), final, i + 1, thoughts), paced: true });
  });
  return elements;
}

function streamFrames(r: Rendering, sse: boolean): Frame[] {
  const elements = streamElements(r);
  if (sse) return elements.map((e) => ({ text: sseData(e.value, '\r\n'), paced: e.paced }));
  const frames = elements.map((e, i) => ({ text: `${i === 0 ? '[' : ',\r\n'}${JSON.stringify(e.value)}`, paced: e.paced }));
  frames.push({ text: ']', paced: false });
  return frames;
}

async function generate(exchange: Exchange, model: string, body: Record<string, unknown>, stream: boolean): Promise<void> {
  const sse = exchange.query.alt === 'sse';
  const contentType = sse ? 'text/event-stream' : 'application/json; charset=UTF-8';
  const scenario = planAnswer(toPrompt(body), exchange.settings, stream, {
    error: (status) => sendGeminiError(exchange, statusError(status, model)),
    openStream: () => openStream(exchange.res, contentType),
    serverError: () => sendGeminiError(exchange, INTERNAL),
  });
  if (!scenario) return;
  const counter = exchange.nextId();
  const rendering: Rendering = {
    model,
    responseId: simId(counter, 23),
    signature: Buffer.from(`sim-thought-signature-${counter}`).toString('base64'),
    scenario,
  };
  if (!stream) return sendJson(exchange.res, 200, fullResponse(rendering));
  openStream(exchange.res, contentType);
  await playFrames(exchange, streamFrames(rendering, sse), scenario.delayMs);
}

const GENERATE_PATH = /^\/(?:v1beta|v1|v1alpha)\/models\/([^/:]+):([A-Za-z]+)$/;
const MODEL_PATH = /^\/(?:v1beta|v1|v1alpha)\/models\/([^/:]+)$/;
const LIST_PATH = /^\/(?:v1beta|v1|v1alpha)\/models$/;

export async function handleGemini(exchange: Exchange): Promise<void> {
  const { req, method, query, body } = exchange;
  const path = safeDecode(exchange.path);
  if (handleGeminiStorage(exchange)) return;
  const key = headerValue(req.headers['x-goog-api-key']) ?? query.key;
  if (!key) {
    return sendGeminiError(exchange, {
      code: 403,
      message: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      status: 'PERMISSION_DENIED',
    });
  }
  const behaviour = credentialBehaviour(key);
  if (key === 'bad-key' || behaviour === 'banned') return sendGeminiError(exchange, API_KEY_INVALID);

  const generatePath = GENERATE_PATH.exec(path);
  const model = generatePath?.[1] ?? MODEL_PATH.exec(path)?.[1] ?? 'gemini-2.5-flash';
  if (behaviour) return sendGeminiError(exchange, resourceExhausted(model));
  if (handleGeminiMedia(exchange)) return;

  if (method === 'GET' && LIST_PATH.test(path)) return sendJson(exchange.res, 200, { models: MODELS.map(modelResource) });
  if (method === 'GET' && MODEL_PATH.test(path)) {
    const found = MODELS.find((m) => m.id === model);
    return found ? sendJson(exchange.res, 200, modelResource(found)) : sendGeminiError(exchange, statusError(404, model));
  }
  const action = generatePath?.[2];
  if (method !== 'POST' || !action || !['generateContent', 'streamGenerateContent', 'countTokens'].includes(action)) {
    return sendGeminiError(exchange, { code: 404, message: `Method not found: ${method} ${path}`, status: 'NOT_FOUND' });
  }
  if (!isRecord(body)) return sendGeminiError(exchange, { code: 400, message: 'Invalid JSON payload received.', status: 'INVALID_ARGUMENT' });
  if (action === 'countTokens') {
    const request = isRecord(body.generateContentRequest) ? body.generateContentRequest : body;
    const total = estimateTokens(toPrompt(request).inputText);
    return sendJson(exchange.res, 200, { totalTokens: total, promptTokensDetails: [{ modality: 'TEXT', tokenCount: total }] });
  }
  await generate(exchange, model, body, action === 'streamGenerateContent');
}
