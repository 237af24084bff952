import type { UnifiedMediaPart } from '../../unified/unified-request';
import { toDataUri } from '../shared/parse-data-uri';

/**
 * Chat content is text, so generated media is rendered as markdown (DECISIONS §7:
 * `![image](data:<mime>;base64,...)`); a URL source keeps its URL.
 */
export function encodeChatMediaMarkdown(part: UnifiedMediaPart): string {
  const url = part.source.kind === 'url' ? part.source.url : toDataUri(part.source.mediaType, part.source.data);
  return `![image](${url})`;
}
