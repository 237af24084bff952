import { GatewayError } from '../errors/gateway-error';

/** A slice of a model list and what the client needs to ask for the next one. */
export interface ModelPage<T> {
  items: T[];
  hasMore: boolean;
  /** Offset of the next page, when there is one. */
  nextOffset?: number;
}

const ANTHROPIC_DEFAULT_LIMIT = 20;
const GEMINI_DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;

/**
 * Anthropic's cursor paging: `limit` (1–1000, default 20), then `after_id` (the page after that id) or `before_id`
 * (the page before it). A cursor that names no listed model is a 400 naming it.
 */
export function anthropicModelPage<T extends { id: string }>(models: readonly T[], query: Readonly<Record<string, string>>): ModelPage<T> {
  const limit = query.limit === undefined ? ANTHROPIC_DEFAULT_LIMIT : wholeNumber(query.limit, 'limit');
  if (limit < 1) throw new GatewayError('GW_INVALID_REQUEST', `limit must be from 1 to ${MAX_PAGE_SIZE}`, { param: 'limit' });
  const size = Math.min(limit, MAX_PAGE_SIZE);
  if (query.before_id !== undefined) {
    const end = indexOfId(models, query.before_id, 'before_id');
    const start = Math.max(0, end - size);
    return { items: models.slice(start, end), hasMore: start > 0 };
  }
  const start = query.after_id === undefined ? 0 : indexOfId(models, query.after_id, 'after_id') + 1;
  return slice(models, start, size);
}

/**
 * Gemini's token paging: `pageSize` (default 50, at most 1000; 0 or less means the default) and the `pageToken` of
 * the previous answer, which here is the offset it stopped at.
 */
export function geminiModelPage<T>(models: readonly T[], query: Readonly<Record<string, string>>): ModelPage<T> {
  const asked = query.pageSize === undefined ? 0 : wholeNumber(query.pageSize, 'pageSize');
  const size = asked <= 0 ? GEMINI_DEFAULT_PAGE_SIZE : Math.min(asked, MAX_PAGE_SIZE);
  const token = query.pageToken;
  if (token === undefined || token === '') return slice(models, 0, size);
  if (!/^\d{1,9}$/.test(token) || Number(token) > models.length) throw new GatewayError('GW_INVALID_REQUEST', 'pageToken is not one this list gave', { param: 'pageToken' });
  return slice(models, Number(token), size);
}

function slice<T>(models: readonly T[], start: number, size: number): ModelPage<T> {
  const end = Math.min(models.length, start + size);
  return end < models.length ? { items: models.slice(start, end), hasMore: true, nextOffset: end } : { items: models.slice(start, end), hasMore: false };
}

function wholeNumber(value: string, param: string): number {
  if (!/^-?\d{1,9}$/.test(value.trim())) throw new GatewayError('GW_INVALID_REQUEST', `${param} must be a whole number`, { param });
  return Number(value);
}

function indexOfId(models: readonly { id: string }[], id: string, param: string): number {
  const index = models.findIndex((model) => model.id === id);
  if (index < 0) throw new GatewayError('GW_INVALID_REQUEST', `${param} "${id}" is not a model of this list`, { param });
  return index;
}
