import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedMessage, UnifiedPart, UnifiedToolResultPart } from '../../unified/unified-request';
import { parseToolCallArguments } from '../shared/parse-tool-call-arguments';
import { encodeFunctionResponse } from './encode-function-response';
import { createModelPartList } from './create-model-part-list';
import { encodeMediaPart } from './encode-media-part';
import type { GeminiContent, GeminiPart } from './gemini-types';
import { invalidField } from './invalid-field';
import { isPreGemini3Model } from './is-pre-gemini3-model';
import { isSynthesizedCallId } from './is-synthesized-call-id';
import { splitMarkdownMedia } from './split-markdown-media';

/**
 * The documented placeholder for a function call Gemini did not produce itself; Gemini 3 answers 400
 * "Function call is missing a thought_signature" without one.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
const DUMMY_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

interface Turn {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** State of one conversation: which function each call id names, and what was dropped. */
interface EncodeState {
  callNames: Map<string, string>;
  warnings: string[];
  /** The unified call id of each functionCall and functionResponse part (an id the gateway made up is not sent). */
  callIdOf: WeakMap<GeminiPart, string>;
}

function encodeToolResult(part: UnifiedToolResultPart, state: EncodeState): GeminiPart {
  const name = state.callNames.get(part.toolCallId) ?? part.name;
  // Named by the call id, not by a field path: this path is the unified model's, which no client format shares.
  if (!name) throw new GatewayError('GW_INVALID_REQUEST', `a tool result answers call id "${part.toolCallId}", which no earlier tool call of the conversation has: Gemini needs that call's function name`);
  const id = isSynthesizedCallId(part.toolCallId) ? {} : { id: part.toolCallId };
  const encoded: GeminiPart = { functionResponse: { ...id, name, response: encodeFunctionResponse(part) } };
  state.callIdOf.set(encoded, part.toolCallId);
  return encoded;
}

/**
 * An assistant message → model parts. A Gemini reasoning part's signature travels on the part that
 * follows it, where Gemini put it (the decoder split it off that part); a signature with no part after
 * it goes on an empty text part, as Gemini itself ends streams. Reasoning from other providers is dropped.
 */
function encodeModelParts(message: UnifiedMessage, mi: number, state: EncodeState): GeminiPart[] {
  const out = createModelPartList();
  message.content.forEach((part: UnifiedPart, pj) => {
    const param = `messages[${mi}].content[${pj}]`;
    switch (part.type) {
      case 'text':
        if (part.text !== '') for (const piece of splitMarkdownMedia(part.text)) out.add(piece);
        break;
      case 'reasoning':
        if (part.provider !== 'gemini') {
          if (part.text || part.signature || part.redactedData) state.warnings.push(`${param}: reasoning from ${part.provider ?? 'another provider'} dropped`);
        } else if (part.text !== '') {
          out.add({ text: part.text, thought: true, ...(part.signature ? { thoughtSignature: part.signature } : {}) });
        } else if (part.signature) {
          out.holdSignature(part.signature);
        }
        break;
      case 'tool_call': {
        const args = parseToolCallArguments(part.arguments, () => state.warnings.push(`${param}.arguments: not a JSON object, sent as {}`), `${param}.arguments`);
        const id = isSynthesizedCallId(part.id) ? {} : { id: part.id };
        const call: GeminiPart = { functionCall: { ...id, name: part.name, args }, ...(part.signature ? { thoughtSignature: part.signature } : {}) };
        state.callIdOf.set(call, part.id);
        out.add(call);
        break;
      }
      case 'tool_result':
        throw invalidField(param, 'a tool result cannot be part of an assistant message');
      default:
        out.add(encodeMediaPart(part));
    }
  });
  return out.finish();
}

/** A user, system or tool message → user parts; media returned by tools follows the functionResponse parts. */
function encodeUserParts(message: UnifiedMessage, mi: number, state: EncodeState): GeminiPart[] {
  const parts: GeminiPart[] = [];
  const toolMedia: GeminiPart[] = [];
  message.content.forEach((part: UnifiedPart, pj) => {
    const param = `messages[${mi}].content[${pj}]`;
    switch (part.type) {
      case 'text':
        if (part.text !== '') parts.push({ text: part.text });
        break;
      case 'reasoning':
        break;
      case 'tool_call':
        throw invalidField(param, `a tool call cannot be part of a ${message.role} message`);
      case 'tool_result':
        parts.push(encodeToolResult(part, state));
        for (const c of part.content) if (c.type !== 'text') toolMedia.push(encodeMediaPart(c));
        break;
      default:
        parts.push(encodeMediaPart(part));
    }
  });
  return [...parts, ...toolMedia];
}

/**
 * Unified messages → Gemini `contents`: roles user/model, consecutive same-role turns merged (tool
 * results and a following user text share one user turn; a mid-conversation system message joins the
 * adjacent user turn as text). On Gemini 3 and later, the first functionCall of a model turn that has
 * no signature gets the documented dummy one.
 */
export function encodeContents(messages: UnifiedMessage[], model: string, warnings: string[]): GeminiContent[] {
  const state: EncodeState = { callNames: new Map(), warnings, callIdOf: new WeakMap() };
  const turns: Turn[] = [];
  messages.forEach((message, mi) => {
    // The latest call with an id names its results: ids synthesized per response (`call_0`) repeat across turns. Within
    // one turn an id names one call: two would leave their results unpairable, one answered as the other.
    const turnIds = new Set<string>();
    for (const part of message.content) {
      if (part.type !== 'tool_call') continue;
      if (turnIds.has(part.id)) throw new GatewayError('GW_INVALID_REQUEST', `two tool calls of one assistant turn have the id "${part.id}": each call needs an id of its own`);
      turnIds.add(part.id);
      state.callNames.set(part.id, part.name);
    }
    const role = message.role === 'assistant' ? 'model' : 'user';
    const parts = role === 'model' ? encodeModelParts(message, mi, state) : encodeUserParts(message, mi, state);
    if (parts.length === 0) return;
    const last = turns.at(-1);
    if (last && last.role === role) last.parts.push(...parts);
    else turns.push({ role, parts });
  });

  turns.forEach((turn, i) => {
    if (turn.role === 'user' && i > 0) answerInCallOrder(turn, turns[i - 1], state.callIdOf);
  });
  if (!isPreGemini3Model(model)) {
    for (const turn of turns) {
      if (turn.role !== 'model') continue;
      const firstCall = turn.parts.find((p) => p.functionCall);
      if (firstCall && firstCall.thoughtSignature === undefined) firstCall.thoughtSignature = DUMMY_THOUGHT_SIGNATURE;
      // An image model's picture sent back (its signature did not survive another format): Gemini 3.1 Flash Image
      // answers "Image part is missing a thought_signature" without one.
      for (const part of turn.parts) if (part.inlineData && part.thoughtSignature === undefined) part.thoughtSignature = DUMMY_THOUGHT_SIGNATURE;
    }
  }
  return turns;
}

/**
 * The functionResponse parts of a user turn put in the order of the calls of the model turn before it, in the slots
 * they held. Without ids (Gemini 2.x makes none), order is all that pairs a result with its call, while other
 * formats pair by id and let results come in any order (two `get_weather` calls answered Tokyo first, then Paris).
 */
function answerInCallOrder(turn: Turn, previous: Turn, callIdOf: WeakMap<GeminiPart, string>): void {
  const order = new Map<string, number>();
  for (const part of previous.parts) {
    const id = part.functionCall ? callIdOf.get(part) : undefined;
    if (id !== undefined && !order.has(id)) order.set(id, order.size);
  }
  if (order.size < 2) return;
  const slots: number[] = [];
  turn.parts.forEach((part, k) => {
    if (part.functionResponse) slots.push(k);
  });
  if (slots.length < 2) return;
  const rank = (part: GeminiPart): number => order.get(callIdOf.get(part) ?? '') ?? order.size;
  const answers = slots.map((k) => turn.parts[k]).sort((a, b) => rank(a) - rank(b));
  slots.forEach((k, n) => {
    turn.parts[k] = answers[n];
  });
}
