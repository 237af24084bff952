import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedUserLocation, UnifiedWebSearchTool } from '../../unified/unified-request';
import { isPlainObject } from './is-plain-object';

const LOCATION_FIELDS = ['city', 'region', 'country', 'timezone'] as const;

function invalid(param: string, detail: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${detail}`, { param });
}

/** A list of domains; absent (undefined or null) is none. Anything else is a 400: a search asked to be restricted must not run unrestricted. */
function domains(value: unknown, param: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw invalid(param, 'must be an array of domain names (strings)');
  return value.length > 0 ? value : undefined;
}

/**
 * `{type: "approximate", city, …}` (Responses, Anthropic) or chat's `{type: "approximate", approximate: {city, …}}` →
 * unified, if it says anything; absent is none, any other shape a 400 naming `param`.
 */
export function readUserLocation(value: unknown, param: string): UnifiedUserLocation | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw invalid(param, 'must be an object ({"type": "approximate", "city": …})');
  const nested = isPlainObject(value.approximate);
  const fields = nested ? (value.approximate as Record<string, unknown>) : value;
  const location: UnifiedUserLocation = {};
  for (const key of LOCATION_FIELDS) {
    const field = fields[key];
    if (field === undefined || field === null) continue;
    if (typeof field !== 'string') throw invalid(`${param}${nested ? '.approximate' : ''}.${key}`, 'must be a string');
    if (field) location[key] = field;
  }
  return Object.keys(location).length > 0 ? location : undefined;
}

/** A unified location in the `{type: "approximate", …}` form Responses and Anthropic take. */
export function approximateLocation(location: UnifiedUserLocation): Record<string, unknown> {
  return { type: 'approximate', ...location };
}

export interface WebSearchFields {
  allowedDomains?: unknown;
  blockedDomains?: unknown;
  userLocation?: unknown;
  maxUses?: unknown;
}

/**
 * A web search tool with the limits the client set (absent ones left out). `params` names each field in the client's
 * body; a field of the wrong shape is a 400 naming it.
 */
export function webSearchTool(fields: WebSearchFields, params: Record<keyof WebSearchFields, string>): UnifiedWebSearchTool {
  const tool: UnifiedWebSearchTool = { type: 'web_search' };
  const allowed = domains(fields.allowedDomains, params.allowedDomains);
  if (allowed) tool.allowedDomains = allowed;
  const blocked = domains(fields.blockedDomains, params.blockedDomains);
  if (blocked) tool.blockedDomains = blocked;
  const location = readUserLocation(fields.userLocation, params.userLocation);
  if (location) tool.userLocation = location;
  if (fields.maxUses !== undefined && fields.maxUses !== null) {
    if (typeof fields.maxUses !== 'number' || !Number.isInteger(fields.maxUses) || fields.maxUses < 1) throw invalid(params.maxUses, 'must be a positive integer');
    tool.maxUses = fields.maxUses;
  }
  return tool;
}
