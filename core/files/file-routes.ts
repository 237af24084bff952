import type { Express, Request, Response } from 'express';
import { GatewayError } from '../errors/gateway-error';
import type { Logger } from '../logging';
import type { Store } from '../store/store';
import { SERVED_FILES_NAMESPACE, type ServedFile } from './file-links';

const SERVABLE_TYPE = /^(image|video)\/[\w.+-]+$/i;
const FILE_ID = /^file_[\w-]{16,64}(\.[a-z0-9]{2,5})?$/;

/**
 * `GET /files/{id}`: bytes published with createFileLinks. No license: the unguessable id is the capability, so a
 * client can hand the URL to anything that displays images. Unknown or expired ids are a 404.
 */
export function mountFileRoutes(app: Express, store: Store, log: Logger): void {
  // A file whose entry cannot be read (a damaged store) is gone as far as its link goes: a 404, reported here.
  const onUnreadable = (id: string, error: Error): void => void log.warn('served file entry unreadable; answered 404', { fileId: id, error: error.message });
  app.get('/files/:id', async (req: Request, res: Response) => {
    const id = String(req.params.id);
    const file = FILE_ID.test(id) ? await store.get<ServedFile>(SERVED_FILES_NAMESPACE, id, { onUnreadable }) : undefined;
    if (!file) throw new GatewayError('GW_NOT_FOUND', 'no such file, or its link has expired');
    const bytes = Buffer.from(file.data, 'base64');
    const maxAge = Math.max(0, Math.floor((file.expiresAt - Date.now()) / 1000));
    res.writeHead(200, {
      'content-type': SERVABLE_TYPE.test(file.mediaType) ? file.mediaType : 'application/octet-stream',
      'content-length': bytes.length,
      'cache-control': `private, max-age=${maxAge}`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    res.end(req.method === 'HEAD' ? undefined : bytes);
  });
}
