import type { UnifiedMediaPart, UnifiedRequest } from '@gateway/core';

/** Where a media part sits in the unified request: message, part, and the tool result holding it, if any. */
export interface MediaPosition {
  message: number;
  part: number;
  toolResult?: number;
}

/**
 * Names a media part for error messages in the client's terms: the JSON path its request decoder recorded
 * (`contents[0].parts[1]`, `messages[2].content[1]`), else its position in the conversation.
 */
export function describeMediaField(request: UnifiedRequest, part: UnifiedMediaPart, at: MediaPosition): string {
  if (part.clientPath !== undefined) return part.clientPath;
  const role = request.messages[at.message]?.role ?? 'user';
  const result = at.toolResult === undefined ? '' : ` tool result ${at.toolResult + 1},`;
  return `${role} message ${at.message + 1},${result} content part ${at.part + 1}`;
}
