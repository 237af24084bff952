import type { UnifiedMediaPart, UnifiedMessage, UnifiedPart, UnifiedRequest, UnifiedTextPart } from './unified-request';

type TextDocument = UnifiedMediaPart & { source: { kind: 'base64'; mediaType: string; data: string } };

/** A plain-text document given inline (a Messages client's `text` or `content` document). */
function isTextDocument(part: UnifiedPart): part is TextDocument {
  return part.type === 'file' && part.source.kind === 'base64' && part.source.mediaType.toLowerCase().startsWith('text/');
}

/**
 * A plain-text document as the text part it is, for upstreams that take no text files (Chat Completions takes only
 * PDFs as file parts, "Invalid file data … application/pdf"; Gemini's platform media are images, audio and video).
 * Its title, kept as the file name, heads it.
 */
export function textDocumentAsText<T extends UnifiedPart>(part: T): T | UnifiedTextPart {
  if (!isTextDocument(part)) return part;
  const text = Buffer.from(part.source.data, 'base64').toString('utf8');
  return { type: 'text', text: part.filename ? `${part.filename}\n\n${text}` : text };
}

/** The request with every plain-text document, tool results' too, as text (the same request when it has none). */
export function withTextDocumentsAsText(request: UnifiedRequest): UnifiedRequest {
  const has = (part: UnifiedPart): boolean => isTextDocument(part) || (part.type === 'tool_result' && part.content.some(isTextDocument));
  if (!request.messages.some((message) => message.content.some(has))) return request;
  return {
    ...request,
    messages: request.messages.map((message) => ({
      ...message,
      content: message.content.map((part) => (part.type === 'tool_result' ? { ...part, content: part.content.map(textDocumentAsText) } : textDocumentAsText(part))) as UnifiedMessage['content'],
    })),
  };
}
