import type { UnifiedOutputPart } from '../../unified/unified-response';
import { readToolCallArguments } from '../shared/parse-tool-call-arguments';
import { createModelPartList } from './create-model-part-list';
import { encodeMediaPart } from './encode-media-part';
import type { GeminiPart } from './gemini-types';

/**
 * Response content → model parts for a Gemini client. Reasoning text becomes `{text, thought: true}`
 * unless the client switched thoughts off; a Gemini signature goes back on the part it came with (the
 * next part; a trailing one on an empty text part). Tool calls keep their id so the client echoes it.
 * A call whose arguments were cut short (not JSON: stopped by the output limit) is left out, and `malformed` says so
 * when no whole call is left: Gemini never hands back half a call, it ends such a turn with MALFORMED_FUNCTION_CALL.
 */
export function encodeOutputParts(content: UnifiedOutputPart[], showThoughts: boolean, clientName: (name: string) => string): { parts: GeminiPart[]; malformed: boolean } {
  const out = createModelPartList();
  let cutShort = false;
  let calls = 0;
  for (const part of content) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') out.add({ text: part.text });
        break;
      case 'reasoning': {
        const signature = part.provider === 'gemini' ? part.signature : undefined;
        if (part.text !== '' && showThoughts) {
          out.add({ text: part.text, thought: true, ...(signature ? { thoughtSignature: signature } : {}) });
        } else if (signature) {
          out.holdSignature(signature);
        }
        break;
      }
      case 'tool_call': {
        const read = readToolCallArguments(part.arguments);
        if (read.cutShort) {
          cutShort = true;
          break;
        }
        const args = read.args;
        calls += 1;
        out.add({ functionCall: { id: part.id, name: clientName(part.name), args }, ...(part.signature ? { thoughtSignature: part.signature } : {}) });
        break;
      }
      default:
        out.add(encodeMediaPart(part));
    }
  }
  return { parts: out.finish(), malformed: cutShort && calls === 0 };
}
