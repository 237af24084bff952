import type { RequestContext, StreamStage } from '@gateway/core';

/** ctx.state key: the request's function names, by Gemini's, when the Gemini encoder changed some. */
const RENAMED_FUNCTIONS = 'gemini.renamedFunctions';

/** Kept for the answer: how to give back the names `geminiCodec.requestFunctionNames` found changed. */
export function keepRenamedFunctions(ctx: Pick<RequestContext, 'state'>, nameOf: ((name: string) => string) | undefined): void {
  if (nameOf) ctx.state.set(RENAMED_FUNCTIONS, nameOf);
}

/**
 * The stage that gives each function call of the answer the name the request used, when the Gemini encoder renamed
 * functions Gemini refuses (`2fa_code` went as `_2fa_code`); none when it renamed none. It comes before any stage that
 * reads calls by name (the signature capture), and before the client's encoder, which maps its own renames back.
 */
export function createFunctionNameStage(ctx: Pick<RequestContext, 'state'>): StreamStage | undefined {
  const nameOf = ctx.state.get(RENAMED_FUNCTIONS);
  if (typeof nameOf !== 'function') return undefined;
  const named = nameOf as (name: string) => string;
  return {
    name: 'gemini-function-names',
    event: (event) => [event.type === 'tool_call_start' ? { ...event, name: named(event.name) } : event],
    response: (response) => ({ ...response, content: response.content.map((part) => (part.type === 'tool_call' ? { ...part, name: named(part.name) } : part)) }),
  };
}
