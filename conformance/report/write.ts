// Writes the report files a run asked for: --json, --junit and --html FILE,
// and --reports DIR (all three, under fixed names), in that order.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StartError } from '../../lib/start-error.js';
import type { RunResult } from '../run/result.js';
import { toHtml } from './html.js';
import { toJsonReport } from './json.js';
import { toJunit } from './junit.js';

export interface ReportFiles {
  json?: string;
  junit?: string;
  html?: string;
  /** A directory for conformance.json, conformance.junit.xml and conformance.html. */
  reports?: string;
}

export class ReportWriteError extends StartError {
  override readonly name = 'ReportWriteError';
  constructor(message: string) {
    super('PLANTSTORE_REPORT_WRITE', message);
  }
}

/** Writes each report asked for; returns the files written. Throws ReportWriteError at the first that cannot be written. */
export function writeReports(run: RunResult, files: ReportFiles): string[] {
  let json: string | undefined;
  const jsonText = () => (json ??= `${JSON.stringify(toJsonReport(run), null, 2)}\n`);
  const junitText = () => toJunit(run);
  const htmlText = () => toHtml(run);
  const wanted: Array<[string | undefined, () => string]> = [
    [files.json, jsonText],
    [files.junit, junitText],
    [files.html, htmlText],
  ];
  if (files.reports) {
    wanted.push([join(files.reports, 'conformance.json'), jsonText]);
    wanted.push([join(files.reports, 'conformance.junit.xml'), junitText]);
    wanted.push([join(files.reports, 'conformance.html'), htmlText]);
  }
  const written: string[] = [];
  for (const [file, text] of wanted) {
    if (!file) continue;
    const content = text();
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
    } catch (err) {
      throw new ReportWriteError(`cannot write the report ${file}: ${(err as Error).message}`);
    }
    written.push(file);
  }
  return written;
}
