import { buildToolArguments, estimateTokens, parseDirectives, splitEven } from './directives';
import type { SimulatorSettings } from './types';

/** What a vendor module extracts from its request body. */
export interface Prompt {
  /** Text of the last user message, or the joined tool results when the last message carries them. */
  lastText: string;
  /** True when the last message is a tool result (Anthropic tool_result, OpenAI tool, Gemini functionResponse). */
  toolResult: boolean;
  /** All input text (system, messages, tool results), for the usage numbers. */
  inputText: string;
  /** The first function the request declares. */
  tool?: { name: string; schema: unknown };
}

export interface ToolCallPlan {
  name: string;
  args: Record<string, unknown>;
  /** The arguments as one JSON string. */
  json: string;
  /** `json` cut into streamable fragments. */
  fragments: string[];
}

/** The whole answer, decided before anything is written; vendor modules only render it. */
export interface Scenario {
  error?: number;
  hang: boolean;
  midstreamError: boolean;
  delayMs: number;
  /** The reply text; '' when the model calls a tool instead. */
  text: string;
  textChunks: string[];
  thinking?: { text: string; chunks: string[] };
  toolCall?: ToolCallPlan;
  inputTokens: number;
  /** Includes the thinking tokens. */
  outputTokens: number;
  thinkingTokens: number;
}

export const THINKING_TEXT = 'The user wants their words echoed back. I will repeat them.';

export function planScenario(prompt: Prompt, settings: SimulatorSettings): Scenario {
  const { directives, text } = parseDirectives(prompt.lastText);
  const chunks = directives.chunks ?? settings.chunks;
  const thinking = directives.thinking ? { text: THINKING_TEXT, chunks: splitEven(THINKING_TEXT, 2) } : undefined;
  const callsTool = directives.tool && !prompt.toolResult && !directives.midstreamError && prompt.tool !== undefined;

  let toolCall: ToolCallPlan | undefined;
  let reply = '';
  if (callsTool && prompt.tool) {
    const args = buildToolArguments(prompt.tool.schema);
    const json = JSON.stringify(args);
    toolCall = { name: prompt.tool.name, args, json, fragments: splitEven(json, chunks) };
  } else {
    reply = prompt.toolResult ? `Tool said: ${text}` : `Echo: ${text}`;
  }
  const textChunks = reply === '' ? [] : splitEven(reply, chunks);
  const thinkingTokens = thinking ? thinking.chunks.length : 0;
  const contentTokens = toolCall ? toolCall.fragments.length : textChunks.length;

  return {
    error: directives.error,
    hang: directives.hang,
    midstreamError: directives.midstreamError,
    delayMs: directives.delayMs ?? settings.chunkDelayMs,
    text: reply,
    textChunks,
    thinking,
    toolCall,
    inputTokens: estimateTokens(prompt.inputText),
    outputTokens: contentTokens + thinkingTokens,
    thinkingTokens,
  };
}

/** Fixed ids: a prefix, a counter and padding, always the same length, e.g. `sim000000000007`. */
export function simId(counter: number, length = 24): string {
  const digits = String(counter);
  return `sim${'0'.repeat(Math.max(0, length - 3 - digits.length))}${digits}`;
}

/** Text of string content or of `{type: text|input_text|output_text, text}` parts, joined. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') texts.push(part);
    else if (typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string') {
      texts.push(part.text);
    }
  }
  return texts.join('');
}

/** Constant timestamp so that responses are byte-for-byte reproducible. */
export const SIM_CREATED = 1757935200;
