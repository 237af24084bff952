import { formatSseEvent, parseToolJson, type WireEvent } from '@gateway/core';
import { createContentBlockAssembler, type ContentBlockAssembler } from './assemble-content-blocks';
import { containerIdOf, MAX_CONTINUATIONS } from './continue-paused-answer';
import { sumMessagesUsage, type MessagesUsageObject } from './sum-messages-usage';

export interface PausedStreamRelay {
  /** One upstream event → the SSE text the client's decoder gets for it ('' when it is held back). */
  push(event: WireEvent): string;
  /** The call's stream paused the turn (its pausing `message_delta` came): its end is held back, the next call goes on. */
  paused(): boolean;
  /** The paused call's `message_stop` came: nothing more of it is needed, though its body has not ended. */
  complete(): boolean;
  /** Starts the next call's round; answers the turn so far, to send back as the assistant's. */
  nextRound(): unknown[];
  /** The code execution container the calls named, to continue in. */
  container(): string | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function frame(name: string | undefined, data: string): string {
  return formatSseEvent(name === undefined ? { data } : { event: name, data });
}

function parse(data: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = parseToolJson(data);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The events of the calls that answer one paused turn, relayed as one Messages stream: the first call's events as
 * they come, except its `pause_turn` end; each continuation's without its `message_start`, block indexes going on
 * from the previous call's, and the final `message_delta` carrying every call's usage summed. What the calls
 * streamed is assembled meanwhile, to be sent back with the next one.
 */
export function createPausedStreamRelay(maxContinuations = MAX_CONTINUATIONS): PausedStreamRelay {
  let round = 0;
  let offset = 0;
  let paused = false;
  let complete = false;
  const turn: unknown[] = [];
  let blocks: ContentBlockAssembler = createContentBlockAssembler();
  /** This call's usage: its `message_start`'s, replaced key by key by its cumulative `message_delta`'s. */
  let callUsage: MessagesUsageObject = {};
  /** The usage of the calls before this one. */
  let earlierUsage: MessagesUsageObject | undefined;
  let container: string | undefined;

  return {
    push(event) {
      const data = parse(event.data);
      if (!data) return frame(event.event, event.data);
      switch (data.type) {
        case 'message_start': {
          const message = isRecord(data.message) ? data.message : {};
          if (isRecord(message.usage)) callUsage = { ...message.usage };
          container = containerIdOf(message) ?? container;
          return round === 0 ? frame(event.event, event.data) : '';
        }
        case 'content_block_start':
        case 'content_block_delta':
        case 'content_block_stop': {
          if (typeof data.index !== 'number') break;
          if (data.type === 'content_block_start') blocks.start(data.index, data.content_block);
          else if (data.type === 'content_block_delta') blocks.delta(data.index, data.delta);
          else blocks.stop(data.index);
          if (offset === 0) break;
          return frame(event.event, JSON.stringify({ ...data, index: data.index + offset }));
        }
        case 'message_delta': {
          if (isRecord(data.usage)) callUsage = { ...callUsage, ...data.usage };
          const delta = isRecord(data.delta) ? data.delta : {};
          container = containerIdOf(delta) ?? container;
          if (delta.stop_reason === 'pause_turn' && round < maxContinuations) {
            paused = true;
            return '';
          }
          if (round === 0) break;
          return frame(event.event, JSON.stringify({ ...data, usage: sumMessagesUsage(earlierUsage, callUsage) }));
        }
        case 'message_stop':
          if (!paused) break;
          complete = true;
          return '';
        default:
          break;
      }
      return frame(event.event, event.data);
    },
    paused: () => paused,
    complete: () => complete,
    container: () => container,
    nextRound() {
      turn.push(...blocks.blocks());
      offset += blocks.size();
      earlierUsage = sumMessagesUsage(earlierUsage, callUsage);
      blocks = createContentBlockAssembler();
      callUsage = {};
      paused = false;
      complete = false;
      round += 1;
      return [...turn];
    },
  };
}
