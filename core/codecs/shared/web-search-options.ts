import type { UnifiedUserLocation, UnifiedWebSearchTool } from '../../unified/unified-request';
import { isPlainObject } from './is-plain-object';

const LOCATION_FIELDS = ['city', 'region', 'country', 'timezone'] as const;

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') && value.length > 0 ? value : undefined;
}

/** `{type: "approximate", city, …}` (Responses, Anthropic) or chat's `{approximate: {city, …}}` → unified, if it says anything. */
export function readUserLocation(value: unknown): UnifiedUserLocation | undefined {
  if (!isPlainObject(value)) return undefined;
  const fields = isPlainObject(value.approximate) ? value.approximate : value;
  const location: UnifiedUserLocation = {};
  for (const key of LOCATION_FIELDS) if (typeof fields[key] === 'string' && fields[key]) location[key] = fields[key] as string;
  return Object.keys(location).length > 0 ? location : undefined;
}

/** A unified location in the `{type: "approximate", …}` form Responses and Anthropic take. */
export function approximateLocation(location: UnifiedUserLocation): Record<string, unknown> {
  return { type: 'approximate', ...location };
}

/** A web search tool with the options read from the client's fields (absent ones left out). */
export function webSearchTool(options: { allowedDomains?: unknown; blockedDomains?: unknown; userLocation?: unknown; maxUses?: unknown }): UnifiedWebSearchTool {
  const tool: UnifiedWebSearchTool = { type: 'web_search' };
  const allowed = strings(options.allowedDomains);
  if (allowed) tool.allowedDomains = allowed;
  const blocked = strings(options.blockedDomains);
  if (blocked) tool.blockedDomains = blocked;
  const location = readUserLocation(options.userLocation);
  if (location) tool.userLocation = location;
  if (typeof options.maxUses === 'number' && Number.isInteger(options.maxUses) && options.maxUses > 0) tool.maxUses = options.maxUses;
  return tool;
}
