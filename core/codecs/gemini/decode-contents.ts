import type { UnifiedMessage, UnifiedPart, UnifiedToolResultPart } from '../../unified/unified-request';
import { createCallIdAllocator } from './create-call-id-allocator';
import { decodeFunctionResponse } from './decode-function-response';
import { isMediaPart } from '../../unified/media-parts';
import { decodeGeminiPart } from './decode-gemini-part';
import type { GeminiContent, GeminiFunctionResponse } from './gemini-types';
import { invalidField } from './invalid-field';

const KNOWN_PART_FIELDS = 'text, inlineData, fileData, functionCall, functionResponse, executableCode, codeExecutionResult';

interface CallRecord {
  /** The id the client gave the call, which its response names. */
  clientId: string | undefined;
  /** The call's id upstream: the client's, unless an earlier call had it (see decodeContents). */
  id: string;
  name: string;
  answered: boolean;
}

/**
 * The conversation's calls, in order, by the client's id and by name: a response finds its call without scanning every
 * call (20000 calls and their responses in one request held the event loop 7.6 s).
 */
class CallIndex {
  private readonly byId = new Map<string, CallList>();
  private readonly byName = new Map<string, CallList>();

  add(call: CallRecord): void {
    if (call.clientId !== undefined) listIn(this.byId, call.clientId).calls.push(call);
    listIn(this.byName, call.name).calls.push(call);
  }

  /** The first unanswered call with this client id. */
  openWithId(id: string): CallRecord | undefined {
    return firstOpen(this.byId.get(id));
  }

  /** The first unanswered call of this name. */
  openNamed(name: string): CallRecord | undefined {
    return firstOpen(this.byName.get(name));
  }

  /** Whether a call had this id, every one of them answered already. */
  allAnswered(id: string): boolean {
    const list = this.byId.get(id);
    return list !== undefined && firstOpen(list) === undefined;
  }
}

/** Calls in order, and where the unanswered ones begin (answered ones before it are passed over once). */
interface CallList {
  calls: CallRecord[];
  from: number;
}

function listIn(map: Map<string, CallList>, key: string): CallList {
  let list = map.get(key);
  if (!list) map.set(key, (list = { calls: [], from: 0 }));
  return list;
}

function firstOpen(list: CallList | undefined): CallRecord | undefined {
  if (!list) return undefined;
  while (list.from < list.calls.length && list.calls[list.from].answered) list.from += 1;
  for (let at = list.from; at < list.calls.length; at += 1) if (!list.calls[at].answered) return list.calls[at];
  return undefined;
}

/**
 * Matches a functionResponse to its call: the first unanswered call with its id, else the first
 * unanswered call of its name (Gemini pairs them by name and position when ids are absent).
 */
function resolveResult(fr: GeminiFunctionResponse, path: string, calls: CallIndex, nextId: () => string): UnifiedToolResultPart {
  const call = (fr.id !== undefined ? calls.openWithId(fr.id) : undefined) ?? calls.openNamed(fr.name);
  if (call) call.answered = true;
  const { content, isError } = decodeFunctionResponse(fr, path);
  return {
    type: 'tool_result',
    toolCallId: call?.id ?? fr.id ?? nextId(),
    name: fr.name,
    content,
    ...(isError ? { isError: true } : {}),
  };
}

/**
 * A functionResponse naming, by id, a call that has had its answer, and no call still waiting for one: an upstream
 * that numbers its calls per turn (`list_dir:0`, `call_0` every time) gives a later call the id of an earlier one.
 */
function isRepeatedAnswer(fr: GeminiFunctionResponse, calls: CallIndex): boolean {
  return fr.id !== undefined && calls.allAnswered(fr.id);
}

/**
 * `contents` → unified messages. `model` turns become assistant messages; user turns are split into
 * user messages and `tool` messages (runs of functionResponse parts), keeping order. Calls without
 * an id, and calls reusing an earlier call's id, get `call_<n>`, unique in the conversation and stable across replays.
 */
export function decodeContents(contents: GeminiContent[]): UnifiedMessage[] {
  const givenIds = contents.flatMap((c) => c.parts.flatMap((p) => (p.functionCall?.id ? [p.functionCall.id] : [])));
  const nextId = createCallIdAllocator(givenIds);
  const calls = new CallIndex();
  /** Ids given to calls so far: a call reusing one gets an id of its own (Anthropic refuses two tool_use with one id). */
  const usedIds = new Set<string>();
  const messages: UnifiedMessage[] = [];
  const push = (role: UnifiedMessage['role'], parts: UnifiedPart[]): void => {
    if (parts.length === 0) return;
    const last = messages.at(-1);
    // Consecutive model turns are one answer (the SDK's chat records each streamed chunk as a turn of its own).
    if (last && last.role === role && (role === 'tool' || role === 'assistant')) last.content.push(...parts);
    else messages.push({ role, content: parts });
  };

  /** Repeated answers dropped from the last user turn, which may then hold nothing else. */
  let repeatsInLastTurn: GeminiFunctionResponse[] = [];
  contents.forEach((content, i) => {
    const model = content.role === 'model';
    repeatsInLastTurn = [];
    let run: UnifiedPart[] = [];
    let runRole: UnifiedMessage['role'] = model ? 'assistant' : 'user';
    content.parts.forEach((part, j) => {
      const path = `contents[${i}].parts[${j}]`;
      if (part.functionResponse) {
        if (model) throw invalidField(`${path}.functionResponse`, 'function responses belong in a user turn');
        if (runRole !== 'tool') {
          push(runRole, run);
          run = [];
          runRole = 'tool';
        }
        // A second response to a call already answered (Gemini CLI sends one on `--resume`): Gemini takes it, other
        // upstreams refuse two results for one call; the first stands.
        if (isRepeatedAnswer(part.functionResponse, calls)) {
          repeatsInLastTurn.push(part.functionResponse);
          return;
        }
        run.push(resolveResult(part.functionResponse, `${path}.functionResponse`, calls, nextId));
        return;
      }
      if (part.functionCall && !model) throw invalidField(`${path}.functionCall`, 'function calls belong in a model turn');
      if (runRole === 'tool') {
        push(runRole, run);
        run = [];
        runRole = 'user';
      }
      const decoded = decodeGeminiPart(part, nextId);
      if (!decoded) throw invalidField(path, `must have one of ${KNOWN_PART_FIELDS}`);
      for (const p of decoded) {
        if (p.type === 'tool_call') {
          if (usedIds.has(p.id)) p.id = nextId();
          usedIds.add(p.id);
          calls.add({ clientId: part.functionCall?.id, id: p.id, name: p.name, answered: false });
        } else if (isMediaPart(p)) p.clientPath = path;
      }
      run.push(...decoded);
    });
    push(runRole, run);
  });
  // A last user turn of repeats only would leave the conversation ending on the model, which Claude reads as a
  // prefill to continue (or refuses): the repeats then stay, as what the user turn said.
  if (repeatsInLastTurn.length > 0 && contents.at(-1)?.role !== 'model' && messages.at(-1)?.role === 'assistant') {
    const text = repeatsInLastTurn.map((fr) => `${fr.name ?? 'function'} result: ${JSON.stringify(fr.response ?? {})}`).join('\n');
    messages.push({ role: 'user', content: [{ type: 'text', text }] });
  }
  return messages;
}
