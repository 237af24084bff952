/** Where a credential stands (DECISIONS §9). */
export type CredentialState = 'healthy' | 'cooling_down' | 'limit_marked' | 'abnormal' | 'invalid';

/** What the store keeps per credential: marks and counters, never the secret. */
export interface CredentialStatus {
  state: CredentialState;
  /** Epoch ms until which the credential is skipped (cooling_down / limit_marked). */
  cooldownUntil?: number;
  /** Why it is not healthy, masked. */
  reason?: string;
  /**
   * The upstream's own error type and code behind a cooldown (a 429 `insufficient_quota`), masked: a later request
   * that finds every credential aside makes no call of its own, and still answers with them.
   */
  upstreamType?: string;
  upstreamCode?: string;
  lastError?: string;
  requests: number;
  errors: number;
  /** Plugin-specific persisted facts (e.g. token-pool rotation membership). */
  extra?: Record<string, unknown>;
}

/** One configured credential: the secret stays in memory, `id` is a stable non-secret handle. */
export interface CredentialEntry<Secret = string> {
  id: string;
  kind: string;
  secret: Secret;
  masked: string;
  tier?: string;
}

/** One row of `GET /admin/credentials/{segment}` and `/admin/pools/{segment}`. */
export interface CredentialView {
  id: string;
  kind: string;
  masked: string;
  tier?: string;
  state: CredentialState;
  inRotation?: boolean;
  cooldownUntil?: string;
  expiresAt?: string;
  requests: number;
  errors: number;
  lastError?: string;
}

export interface AdminView {
  platform: string;
  credentials: CredentialView[];
}
