/** Loose upstream shapes of a chat answer's fields, read as OpenAI's. */
import { isPlainObject } from '../shared/is-plain-object';

/** An answer's `content` read as text and reasoning. */
export interface ChatContent {
  text: string;
  reasoning: string;
}

/** The text of a part list such as a thinking part's `thinking` (`[{type: "text", text}]`), or a plain string. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value.map((part) => (isPlainObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

/**
 * A chat answer's (or delta's) `content`: OpenAI's string, or the list of parts some compatible services answer with
 * (Mistral's reasoning models: `[{type: "thinking", thinking: [{type: "text", text}]}, {type: "text", text}]`), whose
 * text would otherwise be lost without a word.
 */
export function readChatContent(content: unknown): ChatContent {
  if (typeof content === 'string') return { text: content, reasoning: '' };
  if (!Array.isArray(content)) return { text: '', reasoning: '' };
  let text = '';
  let reasoning = '';
  for (const part of content) {
    if (typeof part === 'string') text += part;
    else if (!isPlainObject(part)) continue;
    else if (part.type === 'thinking' || part.type === 'reasoning') reasoning += textOf(part.thinking ?? part.text ?? part.content);
    else if (typeof part.text === 'string') text += part.text;
  }
  return { text, reasoning };
}

/**
 * A tool call's `arguments`: OpenAI's JSON text, or the object some compatible services send in its place, as the
 * text it stands for (read as text only, it was lost without a word and the call ran with `{}`).
 */
export function readToolArguments(value: unknown): string {
  if (typeof value === 'string') return value;
  return isPlainObject(value) ? JSON.stringify(value) : '';
}
