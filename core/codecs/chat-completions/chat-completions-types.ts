/**
 * OpenAI Chat Completions wire types (OAS `CreateChatCompletionRequest`, `CreateChatCompletionResponse`,
 * `CreateChatCompletionStreamResponse`), reduced to the fields the gateway reads or writes.
 */

export interface ChatCompletionsTextPart {
  type: 'text';
  text: string;
  /** Anthropic's prompt caching breakpoint, which clients of Claude through OpenAI-compatible APIs put on parts. */
  cache_control?: unknown;
}

export interface ChatCompletionsImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: string };
}

export interface ChatCompletionsAudioPart {
  type: 'input_audio';
  input_audio: { data: string; format: string };
}

export interface ChatCompletionsFilePart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
}

export interface ChatCompletionsRefusalPart {
  type: 'refusal';
  refusal: string;
}

export type ChatCompletionsContentPart =
  | ChatCompletionsTextPart
  | ChatCompletionsImagePart
  | ChatCompletionsAudioPart
  | ChatCompletionsFilePart
  | ChatCompletionsRefusalPart;

export interface ChatCompletionsToolCall {
  id: string;
  type?: 'function';
  function: { name: string; arguments?: string };
}

export interface ChatCompletionsMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content?: string | ChatCompletionsContentPart[] | null;
  name?: string;
  tool_calls?: ChatCompletionsToolCall[] | null;
  tool_call_id?: string;
  /** DeepSeek-style reasoning text; `reasoning` is the OpenRouter/vLLM spelling. */
  reasoning_content?: string | null;
  reasoning?: string | null;
  refusal?: string | null;
}

export interface ChatCompletionsFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
}

export type ChatCompletionsToolChoice =
  | 'auto'
  | 'none'
  | 'required'
  | { type: 'function'; function: { name: string } }
  | { type: 'allowed_tools'; allowed_tools: { mode: 'auto' | 'required'; tools: Array<{ type: string; function?: { name: string } }> } };

export type ChatCompletionsResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name?: string; description?: string; schema?: Record<string, unknown>; strict?: boolean | null } };

export interface ChatCompletionsRequest {
  model: string;
  messages: ChatCompletionsMessage[];
  tools?: ChatCompletionsFunctionTool[] | null;
  tool_choice?: ChatCompletionsToolChoice | null;
  parallel_tool_calls?: boolean | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  top_k?: number | null;
  stop?: string | string[] | null;
  seed?: number | null;
  presence_penalty?: number | null;
  frequency_penalty?: number | null;
  response_format?: ChatCompletionsResponseFormat | null;
  reasoning_effort?: string | null;
  /** Gateway extension (spec 4.1, Claude): the thinking budget. */
  budget_tokens?: number | null;
  stream?: boolean | null;
  stream_options?: ({ include_usage?: boolean } & Record<string, unknown>) | null;
  user?: string | null;
  web_search_options?: Record<string, unknown> | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  /** Output modalities: `text`, `audio` (OpenAI), `image` (OpenRouter's image models). */
  modalities?: string[] | null;
  [key: string]: unknown;
}

export interface ChatCompletionsUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; [key: string]: unknown } | null;
  completion_tokens_details?: { reasoning_tokens?: number; [key: string]: unknown } | null;
}

export interface ChatCompletionsResponseMessage {
  role: 'assistant';
  content: string | null;
  reasoning_content?: string;
  reasoning?: string | null;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  refusal?: string | null;
  annotations?: unknown[];
}

export interface ChatCompletionsResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{ index: number; message: ChatCompletionsResponseMessage; logprobs?: unknown; finish_reason: string | null }>;
  usage?: ChatCompletionsUsage | null;
  [key: string]: unknown;
}

export interface ChatCompletionsToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface ChatCompletionsDelta {
  role?: 'assistant';
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  refusal?: string | null;
  tool_calls?: ChatCompletionsToolCallDelta[] | null;
  /** `url_citation`s of a web search, every one so far. */
  annotations?: unknown[];
}

export interface ChatCompletionsChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: number; delta: ChatCompletionsDelta; logprobs?: unknown; finish_reason: string | null }>;
  usage?: ChatCompletionsUsage | null;
  [key: string]: unknown;
}

export type ChatCompletionsFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';
