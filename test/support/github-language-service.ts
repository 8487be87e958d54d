/**
 * GitHub's own checks of a workflow file, offline: `@actions/languageservice` (the workflow parser
 * with the checks of expressions and contexts that the GitHub Actions editor extension shows), its
 * errors and its warnings alike. Its packages import their JSON schemas without the `type: 'json'`
 * attribute that Node requires, so a load hook adds the attribute to those files, and only those.
 */
import { registerHooks } from 'node:module';

export interface Diagnostic {
  line: number;
  column: number;
  /** `error`, `warning`, `information` or `hint`. */
  severity: string;
  message: string;
}

registerHooks({
  load(url, context, nextLoad) {
    if (/\/node_modules\/@actions\/[\w-]+\/dist\/.+\.json$/.test(url)) {
      return nextLoad(url, { ...context, importAttributes: { ...context.importAttributes, type: 'json' } });
    }
    return nextLoad(url, context);
  },
});

const [{ validate }, { TextDocument }] = await Promise.all([
  import('@actions/languageservice'),
  import('vscode-languageserver-textdocument'),
]);

const SEVERITIES = ['', 'error', 'warning', 'information', 'hint'];

/** Every diagnostic the language service gives a workflow file; `file` only names it. */
export async function workflowDiagnostics(text: string, file: string): Promise<Diagnostic[]> {
  const document = TextDocument.create(`file:///${file}`, 'yaml', 1, text);
  return (await validate(document)).map((diagnostic) => ({
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    severity: SEVERITIES[diagnostic.severity ?? 1] ?? 'error',
    message: typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value,
  }));
}
