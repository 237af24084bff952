import fs from 'node:fs';
import path from 'node:path';
import type { BodyFormat } from './bodies';
import { modelOf } from './bodies';

export type TargetKind = 'direct' | 'floor' | 'reference' | 'passthrough' | 'translated';
export type Vendor = 'openai' | 'anthropic' | 'gemini';

/** One URL the load is driven at. */
export interface Target {
  id: string;
  kind: TargetKind;
  /** Which server answers: the simulator itself, the floor proxy, the Express + axios reference or the gateway. */
  via: 'simulator' | 'floor' | 'reference' | 'gateway';
  /** The simulated vendor behind it: the `direct` target of the same vendor is its zero-overhead baseline. */
  upstream: Vendor;
  /** Format of the body the client sends. */
  format: BodyFormat;
  path(stream: boolean): string;
  headers: Record<string, string>;
  /** Text the last event of a complete stream contains, in the client's format. */
  streamEnd: string;
}

export const BENCH_LICENSE = 'lic-bench-0123456789';
const GATEWAY_AUTH = { authorization: `Bearer ${BENCH_LICENSE}` };
const JSON_TYPE = { 'content-type': 'application/json' };
const ANTHROPIC_VERSION = { 'anthropic-version': '2023-06-01' };
const STREAM_END: Record<BodyFormat, string> = { 'chat-completions': 'data: [DONE]', messages: 'message_stop', gemini: 'finishReason' };

const fixed = (p: string) => () => p;

/** The platforms whose plugin package exists in this checkout (claude and gemini are built in parallel with this). */
export function presentPlugins(root: string): Array<'claude' | 'gemini'> {
  return (['claude', 'gemini'] as const).filter((name) => fs.existsSync(path.join(root, 'plugins', name, 'src', 'index.ts')));
}

function target(t: Omit<Target, 'streamEnd'>): Target {
  return { ...t, headers: { ...JSON_TYPE, ...t.headers }, streamEnd: STREAM_END[t.format] };
}

/** Express and axios alone in front of the simulator's chat completions: measured in the headline cell only. */
export const REFERENCE_TARGET: Target = target({
  id: 'reference:openai',
  kind: 'reference',
  via: 'reference',
  upstream: 'openai',
  format: 'chat-completions',
  path: fixed('/openai/v1/chat/completions'),
  headers: { authorization: 'Bearer sk-bench-direct' },
});

/**
 * Every target for the mounted platforms. Without a claude plugin, `/openai/v1/messages` (Messages → chat
 * completions) stands in as the translated path.
 */
export function buildTargets(platforms: readonly string[]): Target[] {
  const claude = platforms.includes('claude');
  const gemini = platforms.includes('gemini');
  const targets: Target[] = [
    target({ id: 'direct:openai', kind: 'direct', via: 'simulator', upstream: 'openai', format: 'chat-completions', path: fixed('/openai/v1/chat/completions'), headers: { authorization: 'Bearer sk-bench-direct' } }),
    target({ id: 'floor:openai', kind: 'floor', via: 'floor', upstream: 'openai', format: 'chat-completions', path: fixed('/openai/v1/chat/completions'), headers: { authorization: 'Bearer sk-bench-direct' } }),
    target({ id: 'gw:/openai/v1/chat/completions', kind: 'passthrough', via: 'gateway', upstream: 'openai', format: 'chat-completions', path: fixed('/openai/v1/chat/completions'), headers: GATEWAY_AUTH }),
  ];
  if (claude) {
    targets.push(
      target({ id: 'direct:anthropic', kind: 'direct', via: 'simulator', upstream: 'anthropic', format: 'messages', path: fixed('/anthropic/v1/messages'), headers: { 'x-api-key': 'sk-ant-bench-direct', ...ANTHROPIC_VERSION } }),
      target({ id: 'gw:/claude/v1/messages', kind: 'passthrough', via: 'gateway', upstream: 'anthropic', format: 'messages', path: fixed('/claude/v1/messages'), headers: { ...GATEWAY_AUTH, ...ANTHROPIC_VERSION } }),
      target({ id: 'gw:/claude/v1/chat/completions', kind: 'translated', via: 'gateway', upstream: 'anthropic', format: 'chat-completions', path: fixed('/claude/v1/chat/completions'), headers: GATEWAY_AUTH }),
    );
  } else {
    targets.push(
      target({ id: 'gw:/openai/v1/messages', kind: 'translated', via: 'gateway', upstream: 'openai', format: 'messages', path: fixed('/openai/v1/messages'), headers: { ...GATEWAY_AUTH, ...ANTHROPIC_VERSION } }),
    );
  }
  if (gemini) {
    const model = modelOf('gemini');
    targets.push(
      target({
        id: 'direct:gemini',
        kind: 'direct',
        via: 'simulator',
        upstream: 'gemini',
        format: 'gemini',
        path: (stream) => `/gemini/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        headers: { 'x-goog-api-key': 'AIzaBenchDirect' },
      }),
      target({ id: 'gw:/gemini/v1/chat/completions', kind: 'translated', via: 'gateway', upstream: 'gemini', format: 'chat-completions', path: fixed('/gemini/v1/chat/completions'), headers: GATEWAY_AUTH }),
    );
  }
  return targets;
}
