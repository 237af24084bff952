import {
  geminiMethodPath,
  buildSearchPrompt,
  createSearchHandler,
  GatewayError,
  searchAnswer,
  type CustomHandler,
  type SearchAnswer,
  type SearchSource,
  type Store,
} from '@gateway/core';
import type { SafetySettings } from './create-safety-settings';
import { bareModel, isRecord, type GeminiJsonCaller } from './gemini-json';

/** Google-search grounding answers search queries; it cannot open or search inside a given page. */
const SERVED_COMMANDS = ['search_query'] as const;
/** The model of a search call that names no Gemini model. */
export const DEFAULT_SEARCH_MODEL = 'gemini-2.5-flash';

export interface GeminiSearchDeps {
  caller: GeminiJsonCaller;
  apiVersion: string;
  safety: SafetySettings;
  store: Store;
  platform: string;
  /** The operator's search model; else the request's model when it is a Gemini model, else DEFAULT_SEARCH_MODEL. */
  searchModel?: string;
}

/**
 * `POST /v1/alpha/search` on Gemini: one generateContent call with the `googleSearch` tool answers every query of
 * the call; the grounding chunks become the results, each with the text of the answer segments it supports.
 */
export function createGeminiSearchHandler(deps: GeminiSearchDeps): CustomHandler {
  return createSearchHandler({
    store: deps.store,
    platform: deps.platform,
    serves: SERVED_COMMANDS,
    async answer(search, ctx) {
      const model = bareModel(deps.searchModel ?? (search.model && /^(models\/)?gemini-/i.test(search.model) ? search.model.replace(/-thinking$/, '') : DEFAULT_SEARCH_MODEL));
      const json = {
        contents: [{ role: 'user', parts: [{ text: buildSearchPrompt(search) }] }],
        tools: [{ googleSearch: {} }],
        safetySettings: deps.safety.forRequest(ctx),
        ...(search.maxOutputTokens ? { generationConfig: { maxOutputTokens: search.maxOutputTokens } } : {}),
      };
      return fromGroundedAnswer(await deps.caller.json(ctx, { method: 'POST', path: geminiMethodPath(model, 'generateContent', deps.apiVersion), json }));
    },
  });
}

/**
 * A grounded generateContent answer → its text and sources: `groundingMetadata.groundingChunks[].web.{uri,title}`,
 * each with the answer segments that cite it (`groundingSupports[].segment.text`) as its snippet.
 */
export function fromGroundedAnswer(json: unknown): SearchAnswer {
  if (!isRecord(json)) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream search answer is not a GenerateContentResponse');
  const candidate = Array.isArray(json.candidates) ? json.candidates.find(isRecord) : undefined;
  const parts = isRecord(candidate?.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts.filter(isRecord) : [];
  const text = parts.map((part) => (typeof part.text === 'string' && part.thought !== true ? part.text : '')).join('');
  const grounding = isRecord(candidate?.groundingMetadata) ? candidate.groundingMetadata : {};
  const chunks = Array.isArray(grounding.groundingChunks) ? grounding.groundingChunks : [];
  const snippets = new Map<number, string[]>();
  for (const support of Array.isArray(grounding.groundingSupports) ? grounding.groundingSupports.filter(isRecord) : []) {
    const segment = isRecord(support.segment) && typeof support.segment.text === 'string' ? support.segment.text.trim() : '';
    if (!segment || !Array.isArray(support.groundingChunkIndices)) continue;
    for (const index of support.groundingChunkIndices) {
      if (typeof index !== 'number') continue;
      const list = snippets.get(index) ?? [];
      if (!list.includes(segment)) list.push(segment);
      snippets.set(index, list);
    }
  }
  const sources: SearchSource[] = [];
  chunks.forEach((chunk: unknown, index: number) => {
    const web = isRecord(chunk) && isRecord(chunk.web) ? chunk.web : undefined;
    if (!web || typeof web.uri !== 'string') return;
    const domain = sourceDomain(web);
    sources.push({ url: web.uri, ...(typeof web.title === 'string' ? { title: web.title } : {}), ...(domain ? { domain } : {}), snippet: (snippets.get(index) ?? []).join(' ') });
  });
  return searchAnswer(text, sources, typeof candidate?.finishReason === 'string' ? `finish reason ${candidate.finishReason}` : undefined);
}

/** Google's grounding redirect host: its links name no site, the chunk's `domain` (or its `title`) does. */
const GROUNDING_REDIRECT_HOST = 'vertexaisearch.cloud.google.com';
const HOST_NAME = /^(?:[a-z0-9-]+\.)+[a-z]{2,}$/i;

/** The site a grounding chunk comes from, when its link is Google's redirect rather than the page itself. */
function sourceDomain(web: Record<string, unknown>): string | undefined {
  if (typeof web.domain === 'string' && web.domain.trim()) return web.domain.trim();
  let host: string;
  try {
    host = new URL(String(web.uri)).hostname;
  } catch {
    return undefined;
  }
  if (host !== GROUNDING_REDIRECT_HOST) return undefined;
  return typeof web.title === 'string' && HOST_NAME.test(web.title.trim()) ? web.title.trim() : undefined;
}
