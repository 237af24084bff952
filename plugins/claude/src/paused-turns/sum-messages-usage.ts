/** A Messages `usage` object: token counts, nested counts (`server_tool_use`, `cache_creation`), a few labels. */
export type MessagesUsageObject = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The usage of two calls that answered one turn together (a paused turn and its continuation): counts add up,
 * nested counts too, what is not a count (`service_tier`) is the later call's. Each call is billed for what it read,
 * so the sum is what the turn cost.
 */
export function sumMessagesUsage(earlier: unknown, later: unknown): MessagesUsageObject {
  if (!isRecord(earlier)) return isRecord(later) ? { ...later } : {};
  if (!isRecord(later)) return { ...earlier };
  const sum: MessagesUsageObject = { ...earlier };
  for (const [key, value] of Object.entries(later)) {
    const before = sum[key];
    if (typeof value === 'number' && typeof before === 'number') sum[key] = before + value;
    else if (isRecord(value) && isRecord(before)) sum[key] = sumMessagesUsage(before, value);
    else if (value !== null || before === undefined) sum[key] = value;
  }
  return sum;
}
