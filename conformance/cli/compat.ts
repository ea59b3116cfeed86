// `plantstore-conformance compat --base OLD [--head NEW]`: reads the two
// documents (files or git revisions), classifies every change, proves the
// breaking ones by execution, prints the console report, writes the JSON
// and Markdown reports where asked, and returns the exit code: 0 compatible,
// 1 breaking, 2 a document cannot be read (or the command was misused).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { UsageError } from './values.js';
import { compatHelpText, parseCompatArgs, type CompatCliOptions } from './compat-args.js';
import { compat, CompatDocumentError, type CompatResult } from '../compat/compat.js';
import { renderCompatConsole, renderCompatJson, renderCompatMarkdown } from '../compat/report.js';
import { readDocuments, RevisionError } from '../compat/revision.js';

const complain = (message: string) => process.stderr.write(`plantstore-conformance compat: ${message}\n`);

export async function compatMain(
  argv: string[],
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let options: CompatCliOptions;
  try {
    options = parseCompatArgs(argv, env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    complain(`${err.message}\nTry compat --help.`);
    return 2;
  }
  if (options.action === 'help') {
    process.stdout.write(compatHelpText());
    return 0;
  }
  let documents;
  try {
    documents = readDocuments([options.base!, options.head], cwd);
  } catch (err) {
    if (!(err instanceof RevisionError)) throw err;
    complain(`cannot read the document: ${err.message}`);
    return 2;
  }
  try {
    const [base, head] = documents.refs as [(typeof documents.refs)[0], (typeof documents.refs)[0]];
    let result: CompatResult;
    try {
      result = await compat({
        base,
        head,
        seed: options.seed,
        cases: options.cases,
        timeoutMs: options.timeoutMs,
        rulesOnly: options.rulesOnly,
      });
    } catch (err) {
      // A document that cannot be read is the one case where nothing can be said (exit 2); anything else is a fault of this command, said in one line.
      if (err instanceof CompatDocumentError) complain(err.message);
      else complain(`harness error: ${err instanceof Error ? err.message : String(err)}`);
      return 2;
    }
    const color = options.color !== false && process.stdout.isTTY === true && !process.env.NO_COLOR;
    process.stdout.write(renderCompatConsole(result, { color }));
    const written: string[] = [];
    const write = (file: string | undefined, text: string) => {
      if (!file) return;
      const path = resolve(cwd, file);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      written.push(relative(cwd, path) || path);
    };
    try {
      write(options.json, renderCompatJson(result));
      write(options.markdown, renderCompatMarkdown(result));
    } catch (err) {
      complain(`cannot write a report: ${(err as Error).message}`);
      return 2;
    }
    if (written.length > 0) process.stdout.write(`Reports: ${written.join(', ')}\n`);
    return result.exitCode;
  } finally {
    documents.cleanup();
  }
}
