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

/** How a vendor module ends an exchange that the prompt asks to end before any answer is rendered. */
export interface EarlyEndings {
  /** The vendor's error for the HTTP status the prompt asked for. */
  error(status: number): void;
  /** A stream that hangs: its response opened, then nothing more. */
  openStream(): void;
  /** A mid-stream error asked of a request that does not stream: the vendor's server error. */
  serverError(): void;
}

/**
 * The scenario of a generate request, or undefined once the exchange has been ended early: an error status the
 * prompt asked for, a hang (a stream opens and stays silent; anything else gets no answer at all), or a mid-stream
 * error without a stream to break.
 */
export function planAnswer(prompt: Prompt, settings: SimulatorSettings, stream: boolean, endings: EarlyEndings): Scenario | undefined {
  const scenario = planScenario(prompt, settings);
  if (scenario.error !== undefined) {
    endings.error(scenario.error);
    return undefined;
  }
  if (scenario.hang) {
    if (stream) endings.openStream();
    return undefined;
  }
  if (!stream && scenario.midstreamError) {
    endings.serverError();
    return undefined;
  }
  return scenario;
}

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
