import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestContext } from '../hooks/plugin-api';
import type { Store } from '../store/store';

/** Store namespace of the files the gateway serves at `GET /files/{id}`. */
export const SERVED_FILES_NAMESPACE = 'served-files';

/** A served file as stored: bytes as base64 (store values are JSON). */
export interface ServedFile {
  mediaType: string;
  data: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface FileLinks {
  /**
   * Stores the bytes under a new hard-to-guess id and answers the absolute URL that serves them until they expire:
   * after the links' own lifetime, or `ttlMs` (an async task's image lives as long as the task it completes).
   */
  publish(ctx: Pick<RequestContext, 'headers'>, file: { data: Buffer; mediaType: string }, options?: { ttlMs?: number }): Promise<string>;
}

export interface FileLinksOptions {
  store: Store;
  /** `gateway.publicBaseUrl` (GatewaySettings); without it the URL is built from the request's Host header. */
  publicBaseUrl?: string;
  /** Default one hour, like the upstream image URLs clients are used to. */
  ttlMs?: number;
}

const DEFAULT_TTL_MS = 3600_000;

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
};

/**
 * `url` answers for platforms that only return bytes: the bytes go to the store with a TTL and the id (192 random
 * bits) is the capability to read them; `/files/{id}` needs no license.
 */
export function createFileLinks(options: FileLinksOptions): FileLinks {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  return {
    async publish(ctx, file, given) {
      const lifetime = given?.ttlMs ?? ttlMs;
      const extension = EXTENSIONS[file.mediaType.toLowerCase()];
      const id = `file_${randomBytes(24).toString('base64url')}${extension ? `.${extension}` : ''}`;
      const stored: ServedFile = { mediaType: file.mediaType, data: file.data.toString('base64'), expiresAt: Date.now() + lifetime };
      await options.store.set(SERVED_FILES_NAMESPACE, id, stored, { ttlMs: lifetime });
      return `${requestBaseUrl(ctx.headers, options.publicBaseUrl)}/files/${id}`;
    },
  };
}

/**
 * Where clients reach the gateway: the configured public base URL, else `x-forwarded-proto` (or http) plus the
 * request's Host header.
 */
export function requestBaseUrl(headers: IncomingHttpHeaders, publicBaseUrl?: string): string {
  if (publicBaseUrl) return publicBaseUrl.replace(/\/+$/, '');
  const forwarded = headers['x-forwarded-proto'];
  const proto = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0].trim().toLowerCase();
  const host = headers.host ?? 'localhost';
  return `${proto === 'https' ? 'https' : 'http'}://${host}`;
}
