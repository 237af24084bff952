import { createHash } from 'node:crypto';

/** A stable, non-secret id for a credential: the same secret keeps its stored marks across restarts and config edits. */
export function credentialId(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 12);
}
