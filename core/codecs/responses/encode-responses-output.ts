import type { RequestEcho, UnifiedTool, WireFormat } from '../../unified/unified-request';
import type { UnifiedOutputPart, UnifiedResponse } from '../../unified/unified-response';
import { toDataUri } from '../shared/parse-data-uri';
import { createTextOffsetMap } from '../shared/text-offset-map';
import { toPrefixedId } from '../shared/to-prefixed-id';
import { encodeUrlCitation, encodeWebSearchCall } from './encode-responses-web-search';
import { freeformInput, freeformToolNamed } from './freeform-tools';
import type { ResponsesOutputCustomToolCall, ResponsesOutputFunctionCall, ResponsesOutputItem, ResponsesOutputMessage, ResponsesOutputReasoning, ResponsesOutputText } from './responses-types';

/** Ids of output items, derived from the response id and the item's position (deterministic). */
export function responsesItemId(prefix: 'msg_' | 'rs_', responseId: string, outputIndex: number): string {
  return toPrefixedId(prefix, responseId, outputIndex);
}

/** Whether reasoning (its encrypted content) came from a Responses upstream, the one provider that can replay it. */
export function isOwnReasoning(provider: WireFormat | undefined): boolean {
  return provider === undefined || provider === 'responses';
}

/** A function-call item: the item id `fc_…` comes from the call id, which stays the `call_id` the client echoes. */
export function encodeResponsesFunctionCall(callId: string, name: string, args: string, request: RequestEcho): ResponsesOutputFunctionCall {
  const tool = request.tools?.find((t) => t.name === name);
  // A namespace member is named as in its namespace, which goes with it (see UnifiedTool.namespaceMember).
  const item: ResponsesOutputFunctionCall = {
    id: toPrefixedId('fc_', callId),
    type: 'function_call',
    status: 'completed',
    arguments: args,
    call_id: callId,
    name: tool?.namespaceMember ?? name,
  };
  if (tool?.namespace !== undefined) item.namespace = tool.namespace;
  return item;
}

/**
 * A freeform tool's call (see freeform-tools.ts): item id `ctc_…` from the call id, the input unwrapped, the tool
 * named as the client declared it (a namespace member with its namespace).
 */
function encodeResponsesCustomToolCall(callId: string, tool: Pick<UnifiedTool, 'name' | 'namespace' | 'namespaceMember'>, args: string): ResponsesOutputCustomToolCall {
  const item: ResponsesOutputCustomToolCall = { id: toPrefixedId('ctc_', callId), type: 'custom_tool_call', call_id: callId, name: tool.namespaceMember ?? tool.name, input: freeformInput(args) };
  if (tool.namespace !== undefined) item.namespace = tool.namespace;
  return item;
}

/**
 * A tool call as the client declared its tool: a `custom_tool_call` for a freeform tool, else a `function_call`;
 * `whole`: the call's arguments are all there (see wholeArguments), not the start of a stream's.
 */
export function encodeResponsesToolCall(callId: string, name: string, args: string, request: RequestEcho, whole = false): ResponsesOutputFunctionCall | ResponsesOutputCustomToolCall {
  const freeform = freeformToolNamed(request, name);
  return freeform ? encodeResponsesCustomToolCall(callId, freeform, args) : encodeResponsesFunctionCall(callId, name, whole ? wholeArguments(args) : args, request);
}

/**
 * Unified output parts → `output[]`: the web searches the upstream ran as `web_search_call` items first, then
 * reasoning items, message items (consecutive text parts are one `output_text` of one message, with the
 * `url_citation`s of the text it holds; a refusal a `refusal` part; generated images become markdown) and
 * function_call items (custom_tool_call for a freeform tool).
 */
export function encodeResponsesOutput(
  content: UnifiedOutputPart[],
  responseId: string,
  request: RequestEcho,
  sources: Pick<UnifiedResponse, 'citations' | 'webSearches'> = {},
): ResponsesOutputItem[] {
  const output: ResponsesOutputItem[] = (sources.webSearches ?? []).map(encodeWebSearchCall);
  let message: ResponsesOutputMessage | undefined;
  // Where the answer's text landed: each citation annotates the output_text holding it.
  const offsets = createTextOffsetMap<ResponsesOutputText>();
  const addText = (text: string, refusal = false, answerText = false): void => {
    if (!message) {
      message = { id: responsesItemId('msg_', responseId, output.length), type: 'message', status: 'completed', content: [], role: 'assistant' };
      output.push(message);
    }
    if (refusal) {
      message.content.push({ type: 'refusal', refusal: text });
      offsets.add(text.length);
      return;
    }
    // Consecutive text is one output_text, as a streamed answer gives it: a citation may span what were several parts.
    const last = message.content.at(-1);
    const part: ResponsesOutputText = last?.type === 'output_text' ? last : { type: 'output_text', annotations: [], logprobs: [], text: '' };
    if (part !== last) message.content.push(part);
    if (answerText) offsets.add(text.length, { key: part, offset: part.text.length });
    part.text += text;
  };
  for (const part of content) {
    if (part.type === 'text') {
      addText(part.text, part.refusal, true);
    } else if (part.type === 'tool_call') {
      message = undefined;
      output.push(encodeResponsesToolCall(part.id, part.name, part.arguments, request, true));
    } else if (part.type === 'reasoning') {
      const fromResponses = isOwnReasoning(part.provider);
      // Another provider's signature or redacted data alone: nothing a Responses client can show or replay.
      if (!part.text && !fromResponses) continue;
      message = undefined;
      const item: ResponsesOutputReasoning = {
        id: fromResponses && part.id?.startsWith('rs_') ? part.id : responsesItemId('rs_', responseId, output.length),
        type: 'reasoning',
        summary: part.text ? [{ type: 'summary_text', text: part.text }] : [],
      };
      // Opaque reasoning is replayable only by the provider that made it.
      if (fromResponses && part.redactedData !== undefined) item.encrypted_content = part.redactedData;
      output.push(item);
    } else {
      const url = part.source.kind === 'url' ? part.source.url : toDataUri(part.source.mediaType, part.source.data);
      addText(`![image](${url})`);
    }
  }
  for (const citation of sources.citations ?? []) {
    const at = offsets.locate(citation.start, citation.end);
    at?.key.annotations?.push(encodeUrlCitation(citation, at.start, at.end));
  }
  return output;
}

/**
 * A call's arguments as a client parses them: none at all (some OpenAI-compatible servers send `""` for a function
 * without parameters) is the empty object, which Codex parses where `""` failed its call.
 */
export function wholeArguments(args: string): string {
  return args === '' ? '{}' : args;
}
