/**
 * OpenAI Responses API wire types (OAS `CreateResponse`, `Response`, `ResponseStreamEvent`), reduced to
 * the fields the gateway reads or writes.
 */

export interface ResponsesInputText {
  type: 'input_text';
  text: string;
}

export interface ResponsesInputImage {
  type: 'input_image';
  image_url?: string | null;
  file_id?: string | null;
  detail?: string;
}

export interface ResponsesInputFile {
  type: 'input_file';
  file_data?: string;
  file_url?: string;
  file_id?: string | null;
  filename?: string;
}

export interface ResponsesInputAudio {
  type: 'input_audio';
  input_audio: { data: string; format: string };
}

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations?: unknown[];
  logprobs?: unknown[];
}

export interface ResponsesRefusal {
  type: 'refusal';
  refusal: string;
}

export type ResponsesContentPart =
  | ResponsesInputText
  | ResponsesInputImage
  | ResponsesInputFile
  | ResponsesInputAudio
  | ResponsesOutputText
  | ResponsesRefusal;

export interface ResponsesMessageItem {
  type?: 'message';
  id?: string;
  role: 'user' | 'assistant' | 'system' | 'developer';
  content: string | ResponsesContentPart[];
  status?: string;
}

export interface ResponsesFunctionCallItem {
  type: 'function_call';
  id?: string;
  call_id: string;
  name: string;
  arguments: string;
  /** Codex namespace tools: the call names the inner function and carries its namespace. */
  namespace?: string;
  status?: string;
}

export interface ResponsesFunctionCallOutputItem {
  type: 'function_call_output';
  id?: string;
  call_id: string;
  output: string | Array<ResponsesInputText | ResponsesInputImage | ResponsesInputFile>;
}

export interface ResponsesReasoningItem {
  type: 'reasoning';
  id?: string;
  summary?: Array<{ type: 'summary_text'; text: string }>;
  content?: Array<{ type: 'reasoning_text'; text: string }> | null;
  encrypted_content?: string | null;
  status?: string;
}

export interface ResponsesCustomToolCallItem {
  type: 'custom_tool_call';
  id?: string;
  call_id: string;
  name: string;
  input: string;
  namespace?: string;
}

export interface ResponsesCustomToolCallOutputItem {
  type: 'custom_tool_call_output';
  call_id: string;
  output: string | Array<ResponsesInputText | ResponsesInputImage | ResponsesInputFile>;
}

export interface ResponsesLocalShellCallItem {
  type: 'local_shell_call';
  id?: string;
  call_id: string;
  action: Record<string, unknown>;
}

export interface ResponsesLocalShellCallOutputItem {
  type: 'local_shell_call_output';
  id: string;
  call_id?: string;
  output: string;
}

/** Server-side tool records a client replays; they hold no content another upstream could use. */
export interface ResponsesServerToolItem {
  type: 'web_search_call' | 'file_search_call' | 'image_generation_call' | 'code_interpreter_call' | 'compaction';
}

export type ResponsesInputItem =
  | ResponsesMessageItem
  | ResponsesFunctionCallItem
  | ResponsesFunctionCallOutputItem
  | ResponsesReasoningItem
  | ResponsesCustomToolCallItem
  | ResponsesCustomToolCallOutputItem
  | ResponsesLocalShellCallItem
  | ResponsesLocalShellCallOutputItem
  | ResponsesServerToolItem;

export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
}

export interface ResponsesNamespaceTool {
  type: 'namespace';
  name: string;
  description?: string;
  tools: Array<ResponsesFunctionTool | { type: string; name?: string }>;
}

export type ResponsesTool = ResponsesFunctionTool | ResponsesNamespaceTool | { type: string; [key: string]: unknown };

export type ResponsesToolChoice =
  | 'auto'
  | 'none'
  | 'required'
  | { type: 'function'; name: string }
  | { type: 'allowed_tools'; mode: 'auto' | 'required'; tools: Array<{ type: string; name?: string }> }
  | { type: string; name?: string };

export type ResponsesTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name?: string; description?: string; schema?: Record<string, unknown>; strict?: boolean | null };

export interface ResponsesRequest {
  model: string;
  input: string | ResponsesInputItem[];
  instructions?: string | null;
  tools?: ResponsesTool[] | null;
  tool_choice?: ResponsesToolChoice | null;
  parallel_tool_calls?: boolean | null;
  max_output_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  reasoning?: { effort?: string | null; summary?: string | null; [key: string]: unknown } | null;
  text?: { format?: ResponsesTextFormat | null; [key: string]: unknown } | null;
  stream?: boolean | null;
  user?: string | null;
  [key: string]: unknown;
}

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; [key: string]: unknown };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number; [key: string]: unknown };
  total_tokens: number;
}

export interface ResponsesOutputMessage {
  id: string;
  type: 'message';
  status: 'in_progress' | 'completed' | 'incomplete';
  content: Array<ResponsesOutputText | ResponsesRefusal>;
  role: 'assistant';
}

export interface ResponsesOutputFunctionCall {
  id: string;
  type: 'function_call';
  status: 'in_progress' | 'completed' | 'incomplete';
  arguments: string;
  call_id: string;
  name: string;
  namespace?: string;
}

export interface ResponsesOutputReasoning {
  id: string;
  type: 'reasoning';
  summary: Array<{ type: 'summary_text'; text: string }>;
  encrypted_content?: string;
  status?: 'in_progress' | 'completed' | 'incomplete';
}

/** OAS `ResponseCustomToolCall`: a freeform tool's call, its input as plain text (it has no `status`). */
export interface ResponsesOutputCustomToolCall {
  id: string;
  type: 'custom_tool_call';
  call_id: string;
  name: string;
  input: string;
  namespace?: string;
}

/** OAS `ResponseFunctionWebSearch`: a hosted web search the model ran, with what it searched and found. */
export interface ResponsesOutputWebSearchCall {
  id: string;
  type: 'web_search_call';
  status: 'completed' | 'failed';
  action: { type: 'search'; query?: string; sources?: Array<{ type: 'url'; url: string }> };
}

/** OAS `ResponseOutputText.Annotation` of a web source. */
export interface ResponsesUrlCitation {
  type: 'url_citation';
  start_index: number;
  end_index: number;
  url: string;
  title: string;
}

export type ResponsesOutputItem =
  | ResponsesOutputMessage
  | ResponsesOutputFunctionCall
  | ResponsesOutputCustomToolCall
  | ResponsesOutputReasoning
  | ResponsesOutputWebSearchCall;

export type ResponsesStatus = 'completed' | 'incomplete' | 'in_progress' | 'failed';

export interface ResponsesObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponsesStatus;
  completed_at: number | null;
  error: null;
  incomplete_details: { reason: string } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  model: string;
  output: ResponsesOutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: string | null; summary: string | null };
  store: boolean;
  temperature: number | null;
  text: { format: Record<string, unknown> };
  tool_choice: unknown;
  tools: unknown[];
  top_p: number | null;
  truncation: string;
  usage: ResponsesUsage | null;
  user: string | null;
  metadata: Record<string, unknown>;
  prompt_cache_key: string | null;
  service_tier: string;
}
