import { ConfigError } from '@gateway/core';
import type { PatternList } from './options';

/**
 * A configured pattern list as case-insensitive regular expressions: one per line of a string, or one per array
 * entry; blank lines are ignored and an empty list means `defaults`. An invalid pattern stops start-up with a
 * message naming the field, so a typo never silently disables classification.
 */
export function compilePatterns(value: PatternList | undefined, defaults: readonly string[], field: string): RegExp[] {
  const lines = (typeof value === 'string' ? value.split(/\r?\n/) : (value ?? [])).map((line) => line.trim());
  const sources = lines.some((line) => line !== '') ? lines : defaults;
  const compiled: RegExp[] = [];
  sources.forEach((source, index) => {
    if (source === '') return;
    try {
      compiled.push(new RegExp(source, 'i'));
    } catch (error) {
      const at = typeof value === 'string' ? `${field} (line ${index + 1})` : `${field}[${index}]`;
      throw new ConfigError(`${at}: invalid regular expression ${JSON.stringify(source)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return compiled;
}
