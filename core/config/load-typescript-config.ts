import { defaultLoaders } from 'cosmiconfig';

/**
 * cosmiconfig's loader for `gateway.config.ts`, after a syntax check. TypeScript's transpiler repairs what it can
 * parse around (a missing comma between two platforms), so the file would load as something the operator never
 * wrote, without a word. A syntax error stops start-up instead, with its line and column and TypeScript's message;
 * no line of the file is quoted, as it may hold a credential. Types are not checked: the config is plain data.
 */
export async function loadTypeScriptConfig(filepath: string, content: string): Promise<unknown> {
  const ts = (await import('typescript')).default;
  const { diagnostics = [] } = ts.transpileModule(content, {
    fileName: filepath,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
  });
  const error = diagnostics.find((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  if (error) {
    const at = error.file && error.start !== undefined ? error.file.getLineAndCharacterOfPosition(error.start) : undefined;
    const where = at ? ` (line ${at.line + 1}, column ${at.character + 1})` : '';
    throw new Error(`TypeScript syntax error in ${filepath}${where}: ${ts.flattenDiagnosticMessageText(error.messageText, ' ')}`);
  }
  return defaultLoaders['.ts'](filepath, content);
}
