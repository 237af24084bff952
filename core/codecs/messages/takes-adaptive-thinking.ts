import { isAdaptiveOnlyClaude } from './is-adaptive-only-claude';

/**
 * Claude models that take `thinking: {type: "adaptive"}`: Opus and Sonnet 4.6 and later (older ones need a budget;
 * Opus 4.7 takes only adaptive). The minor version is one or two digits: `claude-opus-4-20250514` is Opus 4.0.
 */
export function takesAdaptiveThinking(model: string): boolean {
  if (isAdaptiveOnlyClaude(model)) return true;
  const version = /claude-(?:opus|sonnet)-(\d+)-(\d{1,2})(?!\d)/.exec(model.toLowerCase());
  if (!version) return false;
  const [major, minor] = [Number(version[1]), Number(version[2])];
  return major > 4 || (major === 4 && minor >= 6);
}
