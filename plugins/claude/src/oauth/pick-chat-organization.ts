function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The organisation a session key should authorise: among those with the `chat` capability (a claude.ai
 * subscription), the one with the most capabilities. Undefined when none has it (an API-only account).
 */
export function pickChatOrganization(body: unknown): string | undefined {
  if (!Array.isArray(body)) return undefined;
  let best: { uuid: string; capabilities: number } | undefined;
  for (const org of body) {
    if (!isRecord(org) || typeof org.uuid !== 'string' || !Array.isArray(org.capabilities)) continue;
    if (!org.capabilities.includes('chat')) continue;
    if (!best || org.capabilities.length > best.capabilities) best = { uuid: org.uuid, capabilities: org.capabilities.length };
  }
  return best?.uuid;
}
