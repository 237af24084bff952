/**
 * Request bodies of the benchmark, in each wire format. The last user message is short and the same in every
 * size, so the simulator's echo (the answer) stays the same size: only the request grows.
 */

export type BodyFormat = 'chat-completions' | 'messages' | 'gemini';
export type BodySize = 'small' | 'large';
/** `json`: one answer; `stream`: 20 chunks at once; `paced`: 20 chunks 10 ms apart; `slow`: 20 chunks 200 ms apart. */
export type BodyMode = 'json' | 'stream' | 'paced' | 'slow';

export const CHUNKS = 20;
export const PACED_DELAY_MS = 10;
export const SLOW_DELAY_MS = 200;

const MODELS: Record<BodyFormat, string> = {
  'chat-completions': 'gpt-4o-mini',
  messages: 'claude-sonnet-4-6',
  gemini: 'gemini-2.5-flash',
};

const SENTENCE = 'The quick brown fox jumps over the lazy dog while the gateway forwards every byte untouched, café au lait. ';
const QUESTION = 'Summarise the conversation so far in one short paragraph, please.';

function filler(chars: number): string {
  return SENTENCE.repeat(Math.ceil(chars / SENTENCE.length)).slice(0, chars);
}

function directives(mode: BodyMode): string {
  switch (mode) {
    case 'json':
      return '';
    case 'stream':
      return ` [sim:chunks=${CHUNKS}]`;
    case 'paced':
      return ` [sim:chunks=${CHUNKS}] [sim:delay=${PACED_DELAY_MS}]`;
    case 'slow':
      return ` [sim:chunks=${CHUNKS}] [sim:delay=${SLOW_DELAY_MS}]`;
  }
}

/** Alternating user/assistant turns: ~1 KB in total for `small`, ~200 KB (a long conversation) for `large`. */
function turns(size: BodySize): Array<{ role: 'user' | 'assistant'; text: string }> {
  const count = size === 'small' ? 2 : 100;
  const chars = size === 'small' ? 380 : 2000;
  const out: Array<{ role: 'user' | 'assistant'; text: string }> = [];
  for (let i = 0; i < count; i += 1) out.push({ role: i % 2 === 0 ? 'user' : 'assistant', text: `${i}: ${filler(chars)}` });
  return out;
}

const SYSTEM = 'You are a concise assistant. Answer in plain text.';

export function buildBody(format: BodyFormat, size: BodySize, mode: BodyMode): Buffer {
  const history = turns(size);
  const last = QUESTION + directives(mode);
  const stream = mode !== 'json';
  const model = MODELS[format];
  let body: unknown;
  if (format === 'chat-completions') {
    body = {
      model,
      stream,
      messages: [{ role: 'system', content: SYSTEM }, ...history.map((t) => ({ role: t.role, content: t.text })), { role: 'user', content: last }],
    };
  } else if (format === 'messages') {
    body = {
      model,
      max_tokens: 1024,
      stream,
      system: SYSTEM,
      messages: [...history.map((t) => ({ role: t.role, content: t.text })), { role: 'user', content: last }],
    };
  } else {
    body = {
      systemInstruction: { parts: [{ text: SYSTEM }] },
      contents: [
        ...history.map((t) => ({ role: t.role === 'assistant' ? 'model' : 'user', parts: [{ text: t.text }] })),
        { role: 'user', parts: [{ text: last }] },
      ],
    };
  }
  return Buffer.from(JSON.stringify(body));
}

export function modelOf(format: BodyFormat): string {
  return MODELS[format];
}
