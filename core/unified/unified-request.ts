/**
 * The one internal model of a generation request. Every client format decodes into it and every
 * upstream format encodes from it (see core/codecs). Fields are optional where some format lacks them.
 */

/** Where a media part's bytes are: a URL the upstream or the gateway fetches, or inline base64. */
export type UnifiedMediaSource =
  | { kind: 'url'; url: string }
  | { kind: 'base64'; mediaType: string; data: string };

export interface UnifiedTextPart {
  type: 'text';
  text: string;
  /**
   * The model declining to answer (chat's `message.refusal`, a Responses `refusal` part): given back as such to the
   * formats that have the field, as plain text to the others.
   */
  refusal?: boolean;
  /** Anthropic prompt-caching breakpoint (`cache_control`): only the messages encoder sends it back; others drop it. */
  cacheControl?: Record<string, unknown>;
}

/** Image, audio, video or a document (PDF and other files). */
export interface UnifiedMediaPart {
  type: 'image' | 'audio' | 'video' | 'file';
  source: UnifiedMediaSource;
  /** Original file name, where the client gave one. */
  filename?: string;
  /** OpenAI image `detail` (`auto|low|high`), kept for OpenAI-family upstreams. */
  detail?: string;
  /** Anthropic prompt-caching breakpoint (`cache_control`): only the messages encoder sends it back; others drop it. */
  cacheControl?: Record<string, unknown>;
  /**
   * Where the client put this part in its own request body (`contents[0].parts[1]`), set by the request decoders, so
   * a platform that refuses the part names the client's field, not one of the body it was translated to.
   */
  clientPath?: string;
}

/** A call the model made. `arguments` is JSON text, as OpenAI sends it, so partial streams fit too. */
export interface UnifiedToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  arguments: string;
  /** Opaque provider state that must travel back with this call (e.g. Gemini `thoughtSignature`). */
  signature?: string;
  /** Anthropic prompt-caching breakpoint (`cache_control`): only the messages encoder sends it back; others drop it. */
  cacheControl?: Record<string, unknown>;
}

/** The result of a tool call, sent back by the client. */
export interface UnifiedToolResultPart {
  type: 'tool_result';
  toolCallId: string;
  /** Function name where known (Gemini needs it; other formats may not carry it). */
  name?: string;
  content: Array<UnifiedTextPart | UnifiedMediaPart>;
  isError?: boolean;
  /** Anthropic prompt-caching breakpoint (`cache_control`): only the messages encoder sends it back; others drop it. */
  cacheControl?: Record<string, unknown>;
}

/**
 * Reasoning/thinking content. `signature` (Anthropic thinking signature, Gemini thought signature)
 * and `redactedData` (Anthropic redacted_thinking, Responses encrypted_content) must go back unchanged
 * to the same provider; `provider` names the format that produced them.
 */
export interface UnifiedReasoningPart {
  type: 'reasoning';
  text: string;
  signature?: string;
  redactedData?: string;
  provider?: WireFormat;
  /** Responses reasoning item id (`rs_…`), kept so the item can be replayed. */
  id?: string;
}

export type UnifiedPart =
  | UnifiedTextPart
  | UnifiedMediaPart
  | UnifiedToolCallPart
  | UnifiedToolResultPart
  | UnifiedReasoningPart;

/**
 * `system` messages may appear anywhere (Claude Code sends one mid-conversation); `tool` messages hold
 * only tool_result parts. Decoders of formats that put tool results in user turns split them out,
 * keeping order.
 */
export interface UnifiedMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: UnifiedPart[];
}

export interface UnifiedTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  strict?: boolean;
  /** Responses `namespace` tool (Codex) this function was flattened out of; only the responses codec uses it. */
  namespace?: string;
  /** That namespace's own description (what its tools are for): upstreams without namespaces get it on each member. */
  namespaceDescription?: string;
  /**
   * The function's own name in its namespace, when `name` had to be qualified with the namespace to stay unique (two
   * MCP servers with a `search` each): upstreams refuse duplicate tool names.
   */
  namespaceMember?: string;
  /**
   * A Responses `custom` tool (Codex's freeform `apply_patch`): upstreams without them get a function of one string
   * argument, `input`, and its calls go back to a Responses client as `custom_tool_call` items. `format` is the
   * tool's own (`text`, or a Lark/regex `grammar`), kept for a Responses upstream.
   */
  freeform?: { format?: Record<string, unknown> };
}

export type UnifiedToolChoice = 'auto' | 'none' | 'required' | { name: string };

export type UnifiedResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name?: string; schema: Record<string, unknown>; strict?: boolean };

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface UnifiedReasoningConfig {
  /** false switches thinking off explicitly; undefined means the upstream default. */
  enabled?: boolean;
  effort?: ReasoningEffort;
  budgetTokens?: number;
  /** Whether thought text (summaries) should come back to the client. */
  includeThoughts?: boolean;
  /** The model chooses how long to think (Anthropic `adaptive`), where no budget or effort is given. */
  adaptive?: boolean;
}

/** Server-side tools that have no JSON schema: web search, code execution. */
/** Where web searches are made from, approximately (the form every vendor takes). */
export interface UnifiedUserLocation {
  city?: string;
  region?: string;
  country?: string;
  timezone?: string;
}

/** A web search the upstream runs, with the limits the client set on it. */
export interface UnifiedWebSearchTool {
  type: 'web_search';
  allowedDomains?: string[];
  blockedDomains?: string[];
  userLocation?: UnifiedUserLocation;
  /** Most searches in one answer (Anthropic `max_uses`). */
  maxUses?: number;
}

export type UnifiedBuiltinTool = UnifiedWebSearchTool | { type: 'code_execution' };

export interface UnifiedRequest {
  model: string;
  /** Top-level system instructions, in order. Mid-conversation system messages stay in `messages`. */
  system: string[];
  messages: UnifiedMessage[];
  tools?: UnifiedTool[];
  builtinTools?: UnifiedBuiltinTool[];
  toolChoice?: UnifiedToolChoice;
  parallelToolCalls?: boolean;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stop?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseFormat?: UnifiedResponseFormat;
  reasoning?: UnifiedReasoningConfig;
  /** Gemini `responseModalities` (e.g. ['TEXT','IMAGE']) and image aspect ratio. */
  outputModalities?: Array<'text' | 'image' | 'audio'>;
  imageAspectRatio?: string;
  stream: boolean;
  /** Chat `stream_options.include_usage`: whether a chat stream ends with a usage chunk. */
  streamUsage?: boolean;
  /** End-user id for abuse tracking (`user`, `metadata.user_id`). */
  user?: string;
  /**
   * Fields with no unified meaning, keyed by the format they came from. An encoder for the same
   * format may copy them back (lossless same-format translation); other encoders ignore them.
   */
  extensions?: Partial<Record<WireFormat, Record<string, unknown>>>;
  /** What the decoder dropped because no upstream can use it (e.g. unknown tool types); logged at debug level. */
  warnings?: string[];
  /**
   * Upstream function name → the client's own, for names the decoder made portable (see
   * codecs/shared/portable-function-names.ts); the client format's response encoders give the client its names back.
   */
  clientFunctionNames?: Record<string, string>;
}

/**
 * What a response encoder may read of the client's request: everything but the conversation. While the upstream
 * answers the pipeline keeps only this, so a long conversation can be collected once it has been sent.
 */
export type RequestEcho = Omit<UnifiedRequest, 'messages'>;

export type WireFormat = 'chat-completions' | 'responses' | 'messages' | 'gemini';
