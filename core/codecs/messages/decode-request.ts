import { withPortableFunctionNames } from '../shared/portable-function-names';
import type { UnifiedRequest, UnifiedResponseFormat } from '../../unified/unified-request';
import { decodeMessagesReasoning } from './decode-messages-reasoning';
import { decodeMessagesToolChoice } from './decode-messages-tool-choice';
import { decodeMessagesTools } from './decode-messages-tools';
import { decodeMessagesTurns } from './decode-messages-turns';
import type { MessagesExtensions, MessagesRawBlock, MessagesRequest } from './messages-types';
import { validateMessagesRequest } from './request-schema';

/** Top-level fields the unified model holds; every other field travels in `extensions.messages` verbatim. */
const MODELLED_FIELDS = new Set([
  'model', 'messages', 'max_tokens', 'system', 'tools', 'tool_choice', 'thinking', 'output_config', 'output_format',
  'metadata', 'stop_sequences', 'temperature', 'top_p', 'top_k', 'stream',
]);

function decodeSystem(system: MessagesRequest['system']): { texts: string[]; raw?: MessagesRawBlock[] } {
  if (system === undefined) return { texts: [] };
  if (typeof system === 'string') return { texts: system ? [system] : [] };
  const texts = system.filter((b) => b.type === 'text' && b.text !== '').map((b) => b.text as string);
  // cache_control and citations on system blocks have no unified home; keep the blocks for a Messages upstream.
  const lossy = system.some((b) => Object.keys(b).some((key) => key !== 'type' && key !== 'text'));
  return lossy ? { texts, raw: system } : { texts };
}

function decodeResponseFormat(wire: MessagesRequest): UnifiedResponseFormat | undefined {
  const format = wire.output_config?.format ?? wire.output_format;
  return format?.type === 'json_schema' && format.schema ? { type: 'json_schema', schema: format.schema } : undefined;
}

function collectExtensions(wire: MessagesRequest, systemRaw: MessagesRawBlock[] | undefined, rawTools: MessagesExtensions['tools']): MessagesExtensions | undefined {
  const ext: MessagesExtensions = {};
  for (const [key, value] of Object.entries(wire)) {
    if (!MODELLED_FIELDS.has(key)) ext[key] = value;
  }
  if (systemRaw) ext.system = systemRaw;
  if (rawTools) ext.tools = rawTools;
  if (wire.thinking) ext.thinking = wire.thinking;
  if (wire.output_config) ext.output_config = wire.output_config;
  if (wire.metadata) ext.metadata = wire.metadata;
  return Object.keys(ext).length > 0 ? ext : undefined;
}

/**
 * A Messages request body (`/v1/messages`, also `/v1/messages/count_tokens`) → unified request.
 * Accepts everything Claude Code sends: mid-conversation `role: "system"` messages, adaptive thinking,
 * `output_config`, `context_management`, `cache_control`, server tools. Throws GW_INVALID_REQUEST naming the field.
 */
export function decodeMessagesRequest(body: unknown): UnifiedRequest {
  const wire = validateMessagesRequest(body);
  const system = decodeSystem(wire.system);
  const turns = decodeMessagesTurns(wire.messages);
  const tools = decodeMessagesTools(wire.tools);
  const choice = decodeMessagesToolChoice(wire.tool_choice, wire.tools);
  const reasoning = decodeMessagesReasoning(wire.thinking, wire.output_config);
  const responseFormat = decodeResponseFormat(wire);
  const userId = wire.metadata?.user_id;
  const extensions = collectExtensions(wire, system.raw, tools.rawTools);

  // Names up to 128 characters (Claude Code's `mcp__server__tool`) are made portable for upstreams allowing 64.
  return withPortableFunctionNames({
    model: wire.model,
    system: [...system.texts, ...turns.leadingSystem],
    messages: turns.messages,
    ...(tools.tools ? { tools: tools.tools } : {}),
    ...(tools.builtinTools ? { builtinTools: tools.builtinTools } : {}),
    ...choice,
    ...(wire.max_tokens !== undefined ? { maxTokens: wire.max_tokens } : {}),
    ...(wire.temperature !== undefined ? { temperature: wire.temperature } : {}),
    ...(wire.top_p !== undefined ? { topP: wire.top_p } : {}),
    ...(wire.top_k !== undefined ? { topK: wire.top_k } : {}),
    ...(wire.stop_sequences !== undefined ? { stop: wire.stop_sequences } : {}),
    ...(responseFormat ? { responseFormat } : {}),
    ...(reasoning ? { reasoning } : {}),
    stream: wire.stream === true,
    ...(typeof userId === 'string' && userId ? { user: userId } : {}),
    ...(extensions ? { extensions: { messages: extensions } } : {}),
  });
}
