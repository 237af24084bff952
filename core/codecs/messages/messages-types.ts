/**
 * Anthropic Messages wire types, as far as the gateway reads or writes them.
 * @see https://docs.claude.com/en/api/messages and `@anthropic-ai/sdk` `resources/messages`.
 * Fields the gateway does not interpret stay `unknown` and travel in `extensions.messages`.
 */

export type MessagesCacheControl = Record<string, unknown>;

export interface MessagesTextBlock {
  type: 'text';
  text: string;
  cache_control?: MessagesCacheControl | null;
  citations?: unknown;
}

export type MessagesImageSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'file'; file_id: string };

export interface MessagesImageBlock {
  type: 'image';
  source: MessagesImageSource;
  cache_control?: MessagesCacheControl | null;
}

export type MessagesDocumentSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; media_type?: string; data: string }
  | { type: 'content'; content: string | Array<MessagesTextBlock | MessagesImageBlock> }
  | { type: 'file'; file_id: string };

export interface MessagesDocumentBlock {
  type: 'document';
  source: MessagesDocumentSource;
  title?: string | null;
  context?: string | null;
  cache_control?: MessagesCacheControl | null;
}

export interface MessagesToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  cache_control?: MessagesCacheControl | null;
}

export interface MessagesToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<MessagesTextBlock | MessagesImageBlock | MessagesDocumentBlock | { type: string }>;
  is_error?: boolean;
  cache_control?: MessagesCacheControl | null;
}

export interface MessagesThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface MessagesRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** Any request content block; blocks the gateway does not model keep their raw shape. */
export type MessagesContentBlock =
  | MessagesTextBlock
  | MessagesImageBlock
  | MessagesDocumentBlock
  | MessagesToolUseBlock
  | MessagesToolResultBlock
  | MessagesThinkingBlock
  | MessagesRedactedThinkingBlock;

/** A request block before it is narrowed by `type` (validated by request-schema.ts). */
export interface MessagesRawBlock {
  type: string;
  [key: string]: unknown;
}

export interface MessagesMessage {
  role: 'user' | 'assistant' | 'system';
  /** Optional only on beta `system` messages. */
  content?: string | MessagesRawBlock[];
}

export interface MessagesTool {
  name: string;
  /** Absent or `custom` for a client tool with a schema; a dated type (`web_search_20250305`…) otherwise. */
  type?: string | null;
  description?: string;
  input_schema?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface MessagesToolChoice {
  type: 'auto' | 'any' | 'tool' | 'none';
  name?: string;
  disable_parallel_tool_use?: boolean;
}

export interface MessagesThinkingConfig {
  type: 'enabled' | 'disabled' | 'adaptive' | 'between_tools';
  budget_tokens?: number;
  [key: string]: unknown;
}

export interface MessagesOutputConfig {
  effort?: string | null;
  format?: { type: 'json_schema'; schema: Record<string, unknown> } | null;
  [key: string]: unknown;
}

/** `POST /v1/messages` body (and `/v1/messages/count_tokens`, which has no `max_tokens`). */
export interface MessagesRequest {
  model: string;
  messages: MessagesMessage[];
  max_tokens?: number;
  system?: string | MessagesRawBlock[];
  tools?: MessagesTool[];
  tool_choice?: MessagesToolChoice;
  thinking?: MessagesThinkingConfig;
  output_config?: MessagesOutputConfig;
  /** Beta structured outputs (`structured-outputs-2025-11-13`), superseded by `output_config.format`. */
  output_format?: { type: 'json_schema'; schema: Record<string, unknown> } | null;
  metadata?: { user_id?: string | null; [key: string]: unknown };
  stop_sequences?: string[];
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stream?: boolean;
  [key: string]: unknown;
}

/**
 * What the messages decoder keeps in `extensions.messages` and the messages encoder puts back:
 * every top-level field it does not model, verbatim, plus these keys whose unified form is lossy.
 */
export interface MessagesExtensions {
  /** The raw system blocks, when any carried more than text (cache_control, citations). */
  system?: MessagesRawBlock[];
  /** Raw tools the unified model cannot hold whole: dated server/client tools, and custom tools with extra fields. */
  tools?: MessagesTool[];
  thinking?: MessagesThinkingConfig;
  output_config?: MessagesOutputConfig;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface MessagesUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
  [key: string]: unknown;
}

export type MessagesStopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

/** Response content blocks the gateway writes. */
export type MessagesResponseBlock =
  | { type: 'text'; text: string; citations?: Array<Record<string, unknown>> }
  | MessagesThinkingBlock
  | MessagesRedactedThinkingBlock
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }
  /** A web search another platform ran, told as Anthropic's tool tells it (see encode-messages-web-search.ts). */
  | { type: 'server_tool_use' | 'web_search_tool_result'; [field: string]: unknown };

/** The `message` object of a non-streaming answer and of `message_start`. */
export interface MessagesResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: MessagesResponseBlock[];
  stop_reason: MessagesStopReason | null;
  stop_sequence: string | null;
  usage: MessagesUsage;
}
