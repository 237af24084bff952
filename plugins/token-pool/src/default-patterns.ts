/**
 * Built-in patterns, used when a list is left empty (spec 7). They are matched, case-insensitively, against the
 * upstream's status line and body (`HTTP 429 Too Many Requests\n{"error":…}`). They stay narrow on purpose: a
 * client's own mistake (a prompt too long, a bad parameter: "Invalid key in 'logit_bias'", an invalid token id) must
 * never take tokens out of service. What the error quotes of the request is blanked before matching (blank-request-echoes.ts).
 */
export const DEFAULT_LIMIT_PATTERNS: readonly string[] = [
  '^HTTP 429\\b',
  '^HTTP 402\\b',
  'rate[ _-]?limit',
  'too many requests',
  'exceeded your (?:current )?quota',
  'insufficient[ _]quota',
  'quota (?:exceeded|exhausted|reached)',
  'resource[ _]exhausted',
  'usage limit',
  '(?:hourly|daily|weekly|monthly) (?:usage |request |message )?limit',
  'insufficient[ _](?:balance|credits?|funds)',
  'credit balance is too low',
];

export const DEFAULT_ANOMALY_PATTERNS: readonly string[] = [
  '^HTTP 401\\b',
  'invalid[ _]api[ _]key',
  'incorrect api key',
  'invalid[ _](?:access|auth|bearer|session)[ _]token',
  'authentication[ _](?:error|failed)',
  '(?:token|key|session|subscription|account|credentials?)\\b[\\w ]{0,30}\\b(?:expired|revoked)',
  'expired[ _](?:token|key|session|subscription|account|credentials?)',
  'suspended',
  'banned',
  'deactivated',
  'account[\\w ]{0,20}\\b(?:disabled|locked|blocked|terminated|closed|deleted)',
];
