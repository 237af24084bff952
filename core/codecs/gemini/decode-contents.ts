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
 * Matches a functionResponse to its call: the first unanswered call with its id, else the first
 * unanswered call of its name (Gemini pairs them by name and position when ids are absent).
 */
function resolveResult(fr: GeminiFunctionResponse, path: string, calls: CallRecord[], nextId: () => string): UnifiedToolResultPart {
  const open = calls.filter((c) => !c.answered);
  const call = (fr.id !== undefined ? open.find((c) => c.clientId === fr.id) : undefined) ?? open.find((c) => c.name === fr.name);
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
function isRepeatedAnswer(fr: GeminiFunctionResponse, calls: CallRecord[]): boolean {
  if (fr.id === undefined) return false;
  return calls.some((call) => call.clientId === fr.id && call.answered) && !calls.some((call) => call.clientId === fr.id && !call.answered);
}

/**
 * `contents` → unified messages. `model` turns become assistant messages; user turns are split into
 * user messages and `tool` messages (runs of functionResponse parts), keeping order. Calls without
 * an id, and calls reusing an earlier call's id, get `call_<n>`, unique in the conversation and stable across replays.
 */
export function decodeContents(contents: GeminiContent[]): UnifiedMessage[] {
  const givenIds = contents.flatMap((c) => c.parts.flatMap((p) => (p.functionCall?.id ? [p.functionCall.id] : [])));
  const nextId = createCallIdAllocator(givenIds);
  const calls: CallRecord[] = [];
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
          calls.push({ clientId: part.functionCall?.id, id: p.id, name: p.name, answered: false });
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
