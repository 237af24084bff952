import type { StreamStage, UnifiedResponse, UnifiedStreamEvent } from '@gateway/core';

export type SaveSignature = (toolCallId: string, signature: string) => Promise<void>;

/**
 * Watches a Gemini answer on its way to a client of another format, which has no place for thought signatures,
 * and hands each function call's signature to `save`, keyed by the call's id. Events and answers pass unchanged.
 */
export function createSignatureCaptureStage(save: SaveSignature): StreamStage {
  return {
    name: 'gemini-signature-capture',

    event(event: UnifiedStreamEvent): UnifiedStreamEvent[] {
      // The save settles long before the client can send its next turn; its failures are logged by the memo.
      if (event.type === 'tool_call_start' && event.signature) void save(event.id, event.signature);
      return [event];
    },

    async response(response: UnifiedResponse): Promise<UnifiedResponse> {
      const saves: Array<Promise<void>> = [];
      for (const part of response.content) {
        if (part.type === 'tool_call' && part.signature) saves.push(save(part.id, part.signature));
      }
      await Promise.all(saves);
      return response;
    },
  };
}
