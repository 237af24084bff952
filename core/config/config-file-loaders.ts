import { defaultLoaders } from 'cosmiconfig';
import type { SourceFile } from 'typescript';
import { findDuplicateJsonKey, type DuplicateKey } from './find-duplicate-json-key';

/**
 * cosmiconfig's loader for `gateway.config.ts`, after a syntax check and a check for a key written twice.
 * TypeScript's transpiler repairs what it can parse around (a missing comma between two platforms), so the file would
 * load as something the operator never wrote, without a word. A syntax error stops start-up instead, with its line
 * and column and TypeScript's message; no line of the file is quoted, as it may hold a credential. Types are not
 * checked: the config is plain data.
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
  const duplicate = findDuplicateProperty(ts, ts.createSourceFile(filepath, content, ts.ScriptTarget.ES2022, true));
  if (duplicate) throw duplicateKeyError(filepath, duplicate);
  return defaultLoaders['.ts'](filepath, content);
}

/** cosmiconfig's JSON loader, after a check for a key written twice in one object (JSON.parse keeps the last). */
export async function loadJsonConfig(filepath: string, content: string): Promise<unknown> {
  const loaded: unknown = await defaultLoaders['.json'](filepath, content);
  const duplicate = findDuplicateJsonKey(content);
  if (duplicate) throw duplicateKeyError(filepath, duplicate);
  return loaded;
}

/**
 * A platform block copied and not renamed replaces the first one, credentials and all, without a word (YAML refuses
 * the same file): the key is named, with its line, and no value is quoted.
 */
function duplicateKeyError(filepath: string, duplicate: DuplicateKey): Error {
  const where = duplicate.path ? ` in ${duplicate.path}` : '';
  return new Error(`${filepath} (line ${duplicate.line}): the key "${duplicate.key}" is written twice${where}; only the last one would count, so rename or remove one`);
}

/**
 * The first property written twice in one object literal (TypeScript's checker error TS1117, which the transpiler
 * does not report). Spreads are left alone: overriding what a spread brought in is what they are for.
 */
function findDuplicateProperty(ts: typeof import('typescript'), file: SourceFile): DuplicateKey | undefined {
  let found: DuplicateKey | undefined;
  const visit = (node: import('typescript').Node, path: string): void => {
    if (found) return;
    if (ts.isObjectLiteralExpression(node)) {
      const seen = new Set<string>();
      for (const property of node.properties) {
        const name = property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) || ts.isNumericLiteral(property.name)) ? property.name.text : undefined;
        if (name === undefined) continue;
        // A getter and a setter of one name make one property; each accessor counts apart from plain properties.
        const kind = ts.isGetAccessorDeclaration(property) ? 'get ' : ts.isSetAccessorDeclaration(property) ? 'set ' : '';
        const seenAs = [kind + name, ...(kind ? [name] : ['get ' + name, 'set ' + name])];
        if (seenAs.some((key) => seen.has(key))) {
          found = { path, key: name, line: file.getLineAndCharacterOfPosition(property.getStart(file)).line + 1 };
          return;
        }
        seen.add(kind + name);
      }
      for (const property of node.properties) {
        const name = property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) ? property.name.text : '';
        ts.forEachChild(property, (child) => visit(child, path && name ? `${path}.${name}` : name || path));
      }
      return;
    }
    ts.forEachChild(node, (child) => visit(child, path));
  };
  visit(file, '');
  return found;
}
