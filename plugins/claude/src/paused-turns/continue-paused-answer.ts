import { sumMessagesUsage } from './sum-messages-usage';

/**
 * How many times one turn is continued after Anthropic paused it (`stop_reason: "pause_turn"`: a server tool ran
 * its iteration limit in one call). The answer after the last continuation is the turn's answer, paused or not.
 */
export const MAX_CONTINUATIONS = 3;

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A Messages answer that a server tool's iteration limit paused: its content goes back to be continued. */
export function isPausedTurn(answer: unknown): answer is Json & { content: unknown[] } {
  return isRecord(answer) && answer.stop_reason === 'pause_turn' && Array.isArray(answer.content);
}

/**
 * The request that continues a paused turn (Anthropic's "handling stop reasons"): the same request with the turn so
 * far as the assistant's last message, sent as it came, and in the code execution container the turn ran in (its
 * files stay there), when it had one.
 */
export function continuationOf(request: Json, turnSoFar: readonly unknown[], container?: string): Json {
  const messages = Array.isArray(request.messages) ? request.messages : [];
  const next: Json = { ...request, messages: [...messages, { role: 'assistant', content: [...turnSoFar] }] };
  if (container !== undefined && request.container === undefined) next.container = container;
  return next;
}

/** The id of the code execution container an answer (or a stream's message or delta) names. */
export function containerIdOf(holder: unknown): string | undefined {
  const container = isRecord(holder) ? holder.container : undefined;
  return isRecord(container) && typeof container.id === 'string' ? container.id : undefined;
}

/**
 * A non-streaming answer continued while it is paused, at most MAX_CONTINUATIONS times: the answer is the last call's,
 * its content every call's blocks in order and its usage their sum.
 */
export async function continuePausedAnswer(request: Json, first: unknown, send: (request: Json) => Promise<unknown>): Promise<unknown> {
  let answer = first;
  const content: unknown[] = [];
  let usage: Json | undefined;
  let container: string | undefined;
  for (let round = 0; isPausedTurn(answer) && round < MAX_CONTINUATIONS; round += 1) {
    content.push(...answer.content);
    usage = sumMessagesUsage(usage, answer.usage);
    container = containerIdOf(answer) ?? container;
    answer = await send(continuationOf(request, content, container));
  }
  if (content.length === 0 || !isRecord(answer)) return answer;
  return { ...answer, content: [...content, ...(Array.isArray(answer.content) ? answer.content : [])], usage: sumMessagesUsage(usage, answer.usage) };
}
