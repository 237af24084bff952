import type { GeminiPart } from './gemini-types';

/**
 * Code execution parts have no unified meaning; they become text so that every client sees them:
 * the code as a fenced block in its language, the result as a fenced `output` block.
 * Returns undefined for parts of any other kind.
 */
export function renderCodeExecutionPart(part: GeminiPart): string | undefined {
  if (part.executableCode) {
    const language = (part.executableCode.language ?? 'PYTHON').toLowerCase().replace('language_unspecified', '');
    return `\n\`\`\`${language}\n${part.executableCode.code.replace(/\n$/, '')}\n\`\`\`\n`;
  }
  if (part.codeExecutionResult) {
    const { outcome, output } = part.codeExecutionResult;
    const failed = outcome !== undefined && outcome !== 'OUTCOME_OK';
    const body = (output ?? '').replace(/\n$/, '');
    return `\n\`\`\`output\n${failed ? `${outcome}\n` : ''}${body}\n\`\`\`\n`;
  }
  return undefined;
}
