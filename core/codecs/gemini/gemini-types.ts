/**
 * Gemini API (`generativelanguage.googleapis.com/v1beta`) wire types, camelCase as the API answers.
 * Requests may also arrive in snake_case; `normalize-gemini-keys.ts` folds them to these names first.
 * @see https://ai.google.dev/api/generate-content
 */

export interface GeminiBlob {
  mimeType: string;
  data: string;
}

export interface GeminiFileData {
  mimeType?: string;
  fileUri: string;
}

export interface GeminiFunctionCall {
  /** Optional on the Developer API; echoed back in the matching functionResponse when present. */
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

/** Multimodal function-response content (Gemini 3). */
export interface GeminiFunctionResponsePart {
  inlineData?: GeminiBlob;
  fileData?: GeminiFileData;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  /** Must be an object; by convention `{output}` / `{error}` / `{result}`. */
  response?: Record<string, unknown>;
  parts?: GeminiFunctionResponsePart[];
}

export interface GeminiExecutableCode {
  language?: string;
  code: string;
}

export interface GeminiCodeExecutionResult {
  outcome?: string;
  output?: string;
}

export interface GeminiPart {
  text?: string;
  /** The part is a thought summary, not answer text. */
  thought?: boolean;
  /** Opaque state that must travel back on the same part of the replayed model turn. */
  thoughtSignature?: string;
  inlineData?: GeminiBlob;
  fileData?: GeminiFileData;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
  executableCode?: GeminiExecutableCode;
  codeExecutionResult?: GeminiCodeExecutionResult;
}

export interface GeminiContent {
  /** `user` or `model`; absent means `user`. `function` is the legacy role of function responses. */
  role?: string;
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** OpenAPI-subset Schema. */
  parameters?: Record<string, unknown>;
  /** Full JSON Schema; never sent together with `parameters`. */
  parametersJsonSchema?: Record<string, unknown>;
}

export interface GeminiTool {
  functionDeclarations?: GeminiFunctionDeclaration[];
  googleSearch?: Record<string, unknown>;
  codeExecution?: Record<string, unknown>;
  [other: string]: unknown;
}

export interface GeminiFunctionCallingConfig {
  mode?: string;
  allowedFunctionNames?: string[];
}

export interface GeminiToolConfig {
  functionCallingConfig?: GeminiFunctionCallingConfig;
  [other: string]: unknown;
}

export interface GeminiThinkingConfig {
  includeThoughts?: boolean;
  thinkingBudget?: number;
  /** `low`/`high` in the docs, `LOW`/`HIGH` from the SDK. Never sent with `thinkingBudget`. */
  thinkingLevel?: string;
}

export interface GeminiImageConfig {
  aspectRatio?: string;
  [other: string]: unknown;
}

export interface GeminiGenerationConfig {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  responseSchema?: Record<string, unknown>;
  responseJsonSchema?: Record<string, unknown>;
  responseModalities?: string[];
  imageConfig?: GeminiImageConfig;
  thinkingConfig?: GeminiThinkingConfig;
  [other: string]: unknown;
}

export interface GeminiGenerateContentRequest {
  contents: GeminiContent[];
  systemInstruction?: { role?: string; parts: GeminiPart[] };
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
  safetySettings?: Array<Record<string, unknown>>;
  cachedContent?: string;
  [other: string]: unknown;
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  [other: string]: unknown;
}

export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiPart[] };
  finishReason?: string;
  /** Why the turn ended, in words (Gemini writes the malformed call here on MALFORMED_FUNCTION_CALL). */
  finishMessage?: string;
  index?: number;
  [other: string]: unknown;
}

export interface GeminiGenerateContentResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string; [other: string]: unknown };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
  /** Vertex AI only (RFC 3339). */
  createTime?: string;
  [other: string]: unknown;
}

/** google.rpc.Status, the body of an error answer or of an error chunk in a stream. */
export interface GeminiErrorBody {
  /** google.rpc.Status; a string from some Gemini-compatible proxies (`{"error": "Upstream provider error: …"}`). */
  error: { code?: number; message?: string; status?: string; [other: string]: unknown } | string;
}
