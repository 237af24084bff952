import { JSON_MODE_INSTRUCTION } from '../codecs/shared/json-mode-instruction';
import type { UpstreamFailure, UpstreamRequest } from '../hooks/plugin-api';

type ChatBody = { messages?: Array<Record<string, unknown>> } & Record<string, unknown>;

/** What a drop answers for a field it left in the body (not `true`: `(json) => delete json.x` answers that). */
const STILL_SENT = 'still sent';

export interface OptionalField {
  name: string;
  /** How the field appears in the bytes sent. */
  marker: Buffer;
  /**
   * Takes the field out, or (a value refused) puts what the refusal `said` the model takes in its place. STILL_SENT
   * when the field is still sent, so that a later refusal of it is answered too (a list cut to its allowed length,
   * which a model may still refuse as a parameter); it must then take the field out the next time.
   */
  drop(json: ChatBody, said: string): typeof STILL_SENT | void;
  /**
   * Whether a refusal naming this field is one to remember for the model (see call-platform.ts); default: yes. A
   * refusal is answered by one call without the field whenever the text names it, as services word them in many ways
   * ("`temperature` and `top_p` cannot both be specified", "`temperature` is deprecated for this model").
   */
  lasting?(text: string): boolean;
  /** Whether a 4xx answer's text refuses this field; default: it names the field. */
  refused?(text: string): boolean;
  /** Whether the bytes sent carry the field; default: they hold `marker`. */
  present?(body: Buffer): boolean;
}

/**
 * The answer refuses the field itself as unknown, in the words services use: Mistral's and FastAPI's `extra_forbidden`
 * ("Extra inputs are not permitted"), OpenAI's "Unsupported parameter", others' "unrecognized"/"unknown" field. A
 * 400 about the field's value ("max_completion_tokens is too large") is no refusal of the field.
 */
function refusesAsUnknown(name: string): (text: string) => boolean {
  const unknown = /extra_forbidden|not permitted|unsupported parameter|unrecognized|unknown (?:field|parameter|name)/i;
  return (text) => text.includes(name) && unknown.test(text);
}

/**
 * A sampling setting is left out of later calls only when the upstream refuses the parameter itself in OpenAI's words
 * ("Unsupported parameter: 'top_p'"): a 400 that names `temperature` for another reason (a tool schema's property)
 * must not take the client's setting away from every later call.
 */
function refusesParameter(name: string): (text: string) => boolean {
  const said = new RegExp(`unsupported parameter\\W+${name}\\b`, 'i');
  return (text) => said.test(text);
}

/**
 * A chat template that takes a system message only at the start (Qwen's on vLLM: "System message must be at the
 * beginning."), where OpenAI takes one anywhere and Claude Code sends one mid-conversation.
 */
const SYSTEM_ONLY_FIRST = /system message[^.]*\b(?:beginning|first|start)\b/i;

const SYSTEM_ROLE = Buffer.from('"role":"system"');
const OTHER_ROLES = ['"role":"user"', '"role":"assistant"', '"role":"tool"'].map((role) => Buffer.from(role));

/** System messages after the first other message go as the user's: their words stay, at their place. */
function systemAfterStartAsUser(json: ChatBody): void {
  let started = false;
  for (const message of json.messages ?? []) {
    if (message.role !== 'system') started = true;
    else if (started) message.role = 'user';
  }
}

/** OpenAI's chat API takes 4 stop sequences (Gemini 5, Anthropic any number). */
const MAX_CHAT_STOPS = 4;
/** "Invalid 'stop': array too long. Expected an array with maximum length 4, …" (its code names no field). */
const TOO_MANY_STOPS = /'stop'[^.]*array too long/i;
const refusesStop = refusesParameter('stop');

/**
 * Fields a translation adds to a chat request that some OpenAI-compatible upstreams refuse with a 400 while others
 * need or use them:
 * - `reasoning_content` on assistant messages: DeepSeek's thinking mode answers 400 to a tool turn without it;
 *   Cerebras, Bedrock through LiteLLM and older OpenAI models answer 400 to one with it ("property …
 *   reasoning_content is unsupported", "Additional properties are not allowed").
 * - `reasoning_effort`, from the client's thinking settings (Claude Code always asks for adaptive thinking): a model
 *   without reasoning, such as gpt-4.1, answers "Unsupported parameter: 'reasoning_effort'". A value the model lacks
 *   (Codex's `minimal` on gpt-5.6, `none` on o3) is moved to the nearest one the refusal lists instead.
 * - `top_p` and `temperature`, which Gemini CLI sends on every call: reasoning models (gpt-5, o-series) answer
 *   "Unsupported parameter: 'top_p' is not supported with this model", or refuse any temperature but 1.
 * - `max_completion_tokens` (OpenAI's name; its reasoning models refuse `max_tokens`) and `stream_options` (the usage
 *   chunk): Mistral answers 422 `extra_forbidden` to either. The limit then goes as `max_tokens`, which every
 *   compatible service knows; a stream goes without its usage chunk.
 * - `verbosity`, from a Responses client's `text.verbosity` (Codex sends it for gpt-5 models), and `prompt_cache_key`
 *   (Codex's session id): Mistral answers 422 `extra_forbidden` to such fields as well.
 * - System messages after the start (Claude Code's reminders, a Responses client's developer items): chat templates
 *   that take one only first refuse the request; they go as user messages then.
 * - `parallel_tool_calls` (Codex sends it on every call): the o-series reasoning models answer "Unsupported
 *   parameter: 'parallel_tool_calls' is not supported with this model".
 * - `stop`, from a Messages client's `stop_sequences` or a Gemini client's `stopSequences`: o3 and o4-mini answer
 *   "Unsupported parameter: 'stop' is not supported with this model", and OpenAI takes 4 at most where Gemini takes 5
 *   and Anthropic any number: the first 4 go then. The answer may then run past a stop sequence.
 */
const OPTIONAL_FIELDS: readonly OptionalField[] = [
  {
    name: 'reasoning_content',
    marker: Buffer.from('"reasoning_content"'),
    drop: (json) => json.messages?.forEach((message) => delete message.reasoning_content),
  },
  { name: 'reasoning_effort', marker: Buffer.from('"reasoning_effort"'), drop: moveEffortToNearest },
  { name: 'top_p', marker: Buffer.from('"top_p"'), drop: (json) => void delete json.top_p, lasting: refusesParameter('top_p') },
  { name: 'temperature', marker: Buffer.from('"temperature"'), drop: (json) => void delete json.temperature, lasting: refusesParameter('temperature') },
  {
    name: 'max_completion_tokens',
    marker: Buffer.from('"max_completion_tokens"'),
    drop: (json) => {
      json.max_tokens = json.max_completion_tokens;
      delete json.max_completion_tokens;
    },
    refused: refusesAsUnknown('max_completion_tokens'),
  },
  { name: 'stream_options', marker: Buffer.from('"stream_options"'), drop: (json) => void delete json.stream_options, refused: refusesAsUnknown('stream_options') },
  { name: 'verbosity', marker: Buffer.from('"verbosity"'), drop: (json) => void delete json.verbosity, refused: refusesAsUnknown('verbosity') },
  { name: 'prompt_cache_key', marker: Buffer.from('"prompt_cache_key"'), drop: (json) => void delete json.prompt_cache_key, refused: refusesAsUnknown('prompt_cache_key') },
  {
    name: 'system messages after the start',
    marker: SYSTEM_ROLE,
    drop: systemAfterStartAsUser,
    refused: (text) => SYSTEM_ONLY_FIRST.test(text),
    // Only a system message after another one counts: a leading system prompt is what every template takes.
    present: (body) => {
      // Only the bytes before the last system message are searched: for a leading system prompt, a few.
      const lastSystem = body.lastIndexOf(SYSTEM_ROLE);
      return lastSystem > 0 && OTHER_ROLES.some((role) => body.subarray(0, lastSystem).includes(role));
    },
  },
  {
    name: 'parallel_tool_calls',
    marker: Buffer.from('"parallel_tool_calls"'),
    drop: (json) => void delete json.parallel_tool_calls,
    lasting: refusesParameter('parallel_tool_calls'),
  },
  // Only a refusal of the parameter itself, or of its length: "stop" is a word many other refusals use, and a message's
  // text may be it.
  {
    name: 'stop',
    marker: Buffer.from('"stop":'),
    drop: (json, said) => {
      if (TOO_MANY_STOPS.test(said) && Array.isArray(json.stop) && json.stop.length > MAX_CHAT_STOPS) {
        json.stop = json.stop.slice(0, MAX_CHAT_STOPS);
        return STILL_SENT;
      }
      delete json.stop;
    },
    refused: (text) => refusesStop(text) || TOO_MANY_STOPS.test(text),
    lasting: refusesStop,
  },
];

const NONE: readonly OptionalField[] = Object.freeze([]);

/** The optional fields a translated chat request carries: those a refusal can be answered by dropping. */
export function optionalFieldsIn(request: UpstreamRequest): readonly OptionalField[] {
  if (request.mode !== 'translate' || request.body === undefined) return NONE;
  const fields = request.format === 'chat-completions' ? OPTIONAL_FIELDS : request.format === 'messages' ? OPTIONAL_MESSAGES_FIELDS : NONE;
  const body = request.body;
  return fields.filter((field) => (field.present ? field.present(body) : body.includes(field.marker)));
}

/** `output_config` or its `format` refused as unknown, not another of its fields (`output_config.effort: …`). */
const REFUSES_OUTPUT_FORMAT = /(?<![\w.])output_config(?:\.format)?(?![\w.])[^.]*(?:extra_forbidden|not permitted|unsupported|unrecognized|unknown)/i;

/** A Messages body asking for structured output (`output_config.format`), which Claude models before 4.5 refuse. */
const STRUCTURED_OUTPUT = Buffer.from('"format":{"type":"json_schema"');

/**
 * Structured output for a model that refuses it: the schema is asked for in words, in the system prompt, as JSON mode
 * is (see JSON_MODE_INSTRUCTION), rather than the client's answer failing.
 */
function schemaInWords(json: ChatBody): void {
  const config = json.output_config as { format?: { schema?: unknown } } | undefined;
  const schema = config?.format?.schema;
  if (!config) return;
  delete config.format;
  if (Object.keys(config).length === 0) delete json.output_config;
  const text = `${JSON_MODE_INSTRUCTION} It must validate against this JSON Schema: ${JSON.stringify(schema ?? {})}`;
  const system = json.system;
  if (Array.isArray(system)) system.push({ type: 'text', text });
  else json.system = [...(typeof system === 'string' && system !== '' ? [{ type: 'text', text: system }] : []), { type: 'text', text }];
  // Automatic caching stays the body's last field (see TOP_LEVEL_CACHING).
  if (json.cache_control !== undefined) {
    const caching = json.cache_control;
    delete json.cache_control;
    json.cache_control = caching;
  }
}

/** How automatic prompt caching ends a Messages body (plugins/claude writes it as the last field). */
const TOP_LEVEL_CACHING = Buffer.from(',"cache_control":{"type":"ephemeral"}}');

/**
 * Fields a translation adds to a Messages request that some models or Anthropic-compatible services refuse:
 * - `output_config.format` (structured output), which Claude models before 4.5 do not support: the schema is then
 *   asked for in the system prompt;
 * - the top-level `cache_control` of automatic prompt caching (see plugins/claude), answered "cache_control: Extra
 *   inputs are not permitted" by a strict service. Block-level markers are the client's and stay.
 */
const OPTIONAL_MESSAGES_FIELDS: readonly OptionalField[] = [
  {
    name: 'output_config.format',
    marker: STRUCTURED_OUTPUT,
    drop: schemaInWords,
    // "Model 'claude-sonnet-4-20250514' does not support structured outputs.", "output_config: Extra inputs are not permitted"
    refused: (text) => /does not support (?:structured outputs?|output[ _]?(?:config|format))/i.test(text) || REFUSES_OUTPUT_FORMAT.test(text),
  },
  {
    name: 'cache_control',
    marker: TOP_LEVEL_CACHING,
    drop: (json) => void delete json.cache_control,
    // The request's own field, which the plugin writes last; a client's markers on blocks are not it.
    present: (body) => body.length > TOP_LEVEL_CACHING.length && body.subarray(-TOP_LEVEL_CACHING.length).equals(TOP_LEVEL_CACHING),
    // "cache_control: Extra inputs are not permitted", not a block's "messages.0.content.0.cache_control: …".
    refused: (text) => /(?<![.\w])cache_control\b/.test(text) && refusesAsUnknown('cache_control')(text),
  },
];

/** Of `fields`, those a 4xx answer names as refused (not as missing). */
export function refusedFields(fields: readonly OptionalField[], failure: Pick<UpstreamFailure, 'status' | 'text'>): OptionalField[] {
  if (failure.status < 400 || failure.status >= 500 || /missing/i.test(failure.text)) return [];
  return fields.filter((field) => (field.refused ? field.refused(failure.text) : failure.text.includes(field.name)));
}

/**
 * The request with `fields` taken out as the refusal `said` (the bytes re-encoded; a rare path). Those still sent (see
 * OptionalField.drop) are added to `stillSent`.
 */
export function withoutFields(request: UpstreamRequest, fields: readonly OptionalField[], said = '', stillSent: OptionalField[] = []): UpstreamRequest {
  const json = JSON.parse(request.body!.toString('utf8')) as ChatBody;
  for (const field of fields) if (field.drop(json, said) === STILL_SENT) stillSent.push(field);
  return { ...request, body: Buffer.from(JSON.stringify(json)) };
}

/** Reasoning efforts from least to most, as OpenAI-compatible services name them. */
const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

/**
 * The effort a refusal of the value lists ("Unsupported value: 'reasoning_effort' does not support 'minimal' with this
 * model. Supported values are: 'none', 'low', 'medium', 'high', and 'xhigh'.") that is nearest the one asked, the
 * larger of two as near (thinking stays on where some was asked); the field is left out when the refusal lists none.
 * Left out, the model used its default (medium) effort, whatever the client asked.
 */
function moveEffortToNearest(json: ChatBody, said: string): void {
  const asked = EFFORTS.indexOf(String(json.reasoning_effort));
  const listed = /supported values are:?([^.]*)/i.exec(said)?.[1] ?? '';
  const supported = [...listed.matchAll(/'([a-z]+)'/gi)].map((match) => match[1].toLowerCase()).filter((effort) => EFFORTS.includes(effort) && effort !== json.reasoning_effort);
  let nearest: string | undefined;
  for (const effort of supported) {
    const distance = Math.abs(EFFORTS.indexOf(effort) - asked);
    const best = nearest === undefined ? Infinity : Math.abs(EFFORTS.indexOf(nearest) - asked);
    if (distance < best || (distance === best && EFFORTS.indexOf(effort) > EFFORTS.indexOf(nearest!))) nearest = effort;
  }
  if (asked >= 0 && nearest !== undefined) json.reasoning_effort = nearest;
  else delete json.reasoning_effort;
}
