import type { UnifiedRequest, WireFormat } from '@gateway/core';

/** Where a media part sits in the unified request: message, part, and the tool result holding it, if any. */
export interface MediaPosition {
  message: number;
  part: number;
  toolResult?: number;
}

/**
 * Names a media part for error messages in the client's terms. Chat completions get the exact JSON path
 * (`messages[2].content[1]`): leading system messages became `system`, and each tool result was its own message.
 * The other formats regroup turns while decoding, so they get the position in the conversation instead.
 */
export function describeMediaField(request: UnifiedRequest, clientFormat: WireFormat | undefined, at: MediaPosition): string {
  if (clientFormat === 'chat-completions') {
    let index = request.system.length;
    for (const message of request.messages.slice(0, at.message)) index += message.role === 'tool' ? message.content.length : 1;
    return `messages[${index + (at.toolResult ?? 0)}].content[${at.part}]`;
  }
  const role = request.messages[at.message]?.role ?? 'user';
  const result = at.toolResult === undefined ? '' : ` tool result ${at.toolResult + 1},`;
  return `${role} message ${at.message + 1},${result} content part ${at.part + 1}`;
}
