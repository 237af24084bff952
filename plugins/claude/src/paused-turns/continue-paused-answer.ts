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
 * far as the assistant's last message, sent as it came.
 */
export function continuationOf(request: Json, turnSoFar: readonly unknown[]): Json {
  const messages = Array.isArray(request.messages) ? request.messages : [];
  return { ...request, messages: [...messages, { role: 'assistant', content: [...turnSoFar] }] };
}

/**
 * A non-streaming answer continued while it is paused, at most MAX_CONTINUATIONS times: the answer is the last call's,
 * its content every call's blocks in order and its usage their sum.
 */
export async function continuePausedAnswer(request: Json, first: unknown, send: (request: Json) => Promise<unknown>): Promise<unknown> {
  let answer = first;
  const content: unknown[] = [];
  let usage: Json | undefined;
  for (let round = 0; isPausedTurn(answer) && round < MAX_CONTINUATIONS; round += 1) {
    content.push(...answer.content);
    usage = sumMessagesUsage(usage, answer.usage);
    answer = await send(continuationOf(request, content));
  }
  if (content.length === 0 || !isRecord(answer)) return answer;
  return { ...answer, content: [...content, ...(Array.isArray(answer.content) ? answer.content : [])], usage: sumMessagesUsage(usage, answer.usage) };
}
