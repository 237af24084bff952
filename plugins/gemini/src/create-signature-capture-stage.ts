import type { StreamStage, UnifiedResponse, UnifiedStreamEvent } from '@gateway/core';
import type { SignedCall } from './signature-memo';

export type SaveSignature = (call: SignedCall, signature: string) => Promise<void>;

/**
 * Watches a Gemini answer on its way to a client of another format, which has no place for thought signatures,
 * and hands each signed function call (id, name, whole arguments) with its signature to `save`. A streamed call's
 * arguments come in fragments: its save waits for the end of the answer. Events and answers pass unchanged.
 */
export function createSignatureCaptureStage(save: SaveSignature): StreamStage {
  /** Signed calls of the stream so far, by tool index. */
  const streamed = new Map<number, SignedCall & { signature: string }>();

  const saveStreamed = (): UnifiedStreamEvent[] => {
    // The saves settle long before the client can send its next turn; their failures are logged by the memo.
    for (const { signature, ...call } of streamed.values()) void save(call, signature);
    streamed.clear();
    return [];
  };

  return {
    name: 'gemini-signature-capture',

    event(event: UnifiedStreamEvent): UnifiedStreamEvent[] {
      if (event.type === 'tool_call_start' && event.signature) {
        streamed.set(event.index, { id: event.id, name: event.name, arguments: '', signature: event.signature });
      } else if (event.type === 'tool_call_delta') {
        const call = streamed.get(event.index);
        if (call) call.arguments += event.argumentsDelta;
      } else if (event.type === 'finish') {
        saveStreamed();
      }
      return [event];
    },

    end: saveStreamed,

    async response(response: UnifiedResponse): Promise<UnifiedResponse> {
      const saves: Array<Promise<void>> = [];
      for (const part of response.content) {
        if (part.type === 'tool_call' && part.signature) saves.push(save(part, part.signature));
      }
      await Promise.all(saves);
      return response;
    },
  };
}
