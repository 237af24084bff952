import { GatewayError } from '@gateway/core';

/** What a Veo video id carries: the long-running operation, the key that started it and when. */
export interface VeoVideoRef {
  /** `models/{model}/operations/{id}`. */
  operation: string;
  /** Id of the credential that created it (operations belong to that key's project); '' when unknown. */
  credential: string;
  /** Unix seconds. */
  createdAt: number;
}

const PREFIX = 'video_';
/** Each name segment starts with a word character or `-`: a `.` or `..` segment would be a path step upstream. */
const OPERATION = /^models\/[\w-][\w.-]*\/operations\/[\w-][\w.-]*$/;

/** Whether an upstream operation name is one a video id can carry (and the gateway read back). */
export function isVeoOperationName(name: string): boolean {
  return OPERATION.test(name);
}

/** `video_` + base64url of `createdAt.credential.operation`: reversible, URL-safe, nothing secret in it. */
export function encodeVeoVideoId(ref: VeoVideoRef): string {
  return PREFIX + Buffer.from(`${ref.createdAt}.${ref.credential}.${ref.operation}`, 'utf8').toString('base64url');
}

/** The reference a video id stands for; anything the gateway did not issue is a 404 naming the id. */
export function decodeVeoVideoId(id: string): VeoVideoRef {
  const notFound = new GatewayError('GW_NOT_FOUND', `no video "${id}": not a video id of this platform`, { param: 'video_id' });
  if (!id.startsWith(PREFIX) || !/^[\w-]+$/.test(id.slice(PREFIX.length))) throw notFound;
  const text = Buffer.from(id.slice(PREFIX.length), 'base64url').toString('utf8');
  const match = /^(\d+)\.([0-9a-f]*)\.(.+)$/.exec(text);
  if (!match || !OPERATION.test(match[3])) throw notFound;
  return { createdAt: Number(match[1]), credential: match[2], operation: match[3] };
}

/** `models/veo-3.0-generate-001/operations/x` → `veo-3.0-generate-001`. */
export function operationModel(operation: string): string {
  return operation.split('/')[1] ?? '';
}
