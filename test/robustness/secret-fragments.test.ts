// A secret echoed by a hostile target at any offset of its answer, in each
// form (as is, JSON-escaped, percent-encoded): no run of 8 of its characters
// appears in any report (console, JSON, JUnit, HTML, HAR, the Action's job
// summary), wherever a shortening cut it, and the prose around it is shown
// as sent. The target is test/support/echoing-target.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../../lib/process.js';
import { REDACTED } from '../../conformance/redact/shorten.js';
import { TOKEN_VAR } from '../../conformance/run/curl.js';
import { closingLine, renderConsole, whatFailedLines } from '../../conformance/report/console.js';
import { HarWriter } from '../../conformance/report/har.js';
import { toHtml } from '../../conformance/report/html.js';
import { toJsonReport } from '../../conformance/report/json.js';
import { toJunit } from '../../conformance/report/junit.js';
import { exitCode, runResult } from '../../conformance/run/result.js';
import { run } from '../../conformance/run/runner.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import type { Target } from '../../conformance/model/target.js';
import { summaryMarkdown } from '../../scripts/action.js';
import {
  API_KEY,
  ECHO_FORMS,
  fragmentsIn,
  LONG_TOKEN,
  prose,
  PROSE,
  startEchoingTarget,
  type EchoKind,
} from '../support/echoing-target.js';
import { startFake } from '../support/fake-server.js';

const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));

/**
 * Where each kind of answer is cut before a report shows it (a body at 300
 * characters, an Error message in a diagnosis at 100, bytes that are not HTTP
 * at 60): the secret at the start, well before the cut, and at every offset
 * that puts the cut inside it, in each of its forms (the percent-encoded one
 * is 50 characters long), then just past it.
 */
const CUT: Record<EchoKind, number> = { answer: 300, refuse: 100, garbage: 60 };
const OFFSETS: Record<EchoKind, number[]> = {
  answer: [0, 230, ...Array.from({ length: 56 }, (_, i) => 245 + i), 301, 340],
  refuse: [0, ...Array.from({ length: 56 }, (_, i) => 45 + i), 101, 140],
  garbage: [0, ...Array.from({ length: 56 }, (_, i) => 5 + i), 61, 100],
};

describe(
  'a secret echoed at any offset of an answer: no 8 of its characters in any report, wherever a shortening cuts it',
  { timeout: 600_000 },
  () => {
    const model = loadSpecModel();
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-fragments-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    /** One run against the echoing target (and, beside it, a conforming one, so that the matrix says why they disagree), rendered by every reporter. */
    async function reports(
      target: Target,
      beside: Target | undefined,
      checks: string[],
    ): Promise<Record<string, string>> {
      const harFile = join(dir, 'run.har');
      const har = new HarWriter(harFile);
      const targets = beside ? [target, beside] : [target];
      let results;
      try {
        results = await run({
          model,
          targets,
          seed: 1,
          cases: 1,
          timeoutMs: 30_000,
          only: checks,
          onWire: (t, ex, timing) => har.add(t, ex, timing),
        });
      } finally {
        har.close();
      }
      const result = runResult({ seed: 1, strict: false, lint: [], targets: results, divergences: [] });
      const code = exitCode(result.targets, false);
      const json = toJsonReport(result);
      const inputs = { target: target.url, token: target.token, strict: false, seed: '1', reports: 'r' };
      return {
        console: `${renderConsole(result, { color: false, lint: 'count' })}${whatFailedLines(result, { color: false }).join('\n')}${closingLine(result, code)}`,
        json: JSON.stringify(json, null, 2),
        junit: toJunit(result),
        html: toHtml(result),
        har: readFileSync(harFile, 'utf8'),
        summary: summaryMarkdown(json, code, inputs),
      };
    }

    /** `shownAs`: what the reports show for the whole secret, when it stands before the cut (redacted, then cut). */
    async function sweep(
      secret: string,
      shownAs: string,
      kind: EchoKind,
      targetOf: (url: string) => Target,
      checks: string[],
    ): Promise<void> {
      const echoing = await startEchoingTarget(secret);
      const fake = kind === 'answer' ? await startFake({ tokens: ['fake-token'] }) : undefined;
      const beside: Target | undefined = fake && {
        name: 'conforming',
        url: fake.url,
        token: 'fake-token',
        role: 'target',
        informs: false,
        restrictsTokens: true,
        tokenFrom: '--token',
      };
      try {
        let shown = 0;
        for (const form of ECHO_FORMS) {
          for (const offset of OFFSETS[kind]) {
            const where = `${kind} ${form} at ${offset}`;
            const texts = await reports(targetOf(echoing.url(kind, form, offset)), beside, checks);
            if (offset + shownAs.length <= CUT[kind])
              assert.ok(
                texts.json!.includes(`${prose(offset)}${shownAs}`),
                `${where}: the secret before the cut is shown as ${shownAs}`,
              );
            for (const [report, text] of Object.entries(texts)) {
              assert.deepEqual(fragmentsIn(text, secret), [], `${where}: part of the secret in the ${report} report`);
              // What a report shows of the answer is its prose, as it was sent: only the secret is redacted.
              if (text.includes(PROSE.trim())) shown++;
            }
          }
        }
        assert.ok(shown > 0, 'the reports show what the target answered');
      } finally {
        await echoing.close();
        await fake?.close();
      }
    }

    const withToken = (url: string): Target => ({
      name: 'target',
      url,
      token: LONG_TOKEN,
      role: 'target',
      informs: false,
      restrictsTokens: true,
      tokenFrom: '--token',
    });
    const withKey = (url: string): Target => ({
      ...withToken(url),
      token: 'a-token-never-echoed',
      headers: { 'x-api-key': API_KEY },
    });

    test('the token in a body shown in an Actual (cut at 300)', async () =>
      sweep(LONG_TOKEN, TOKEN_VAR, 'answer', withToken, ['PS-ACCEPT-001', 'PS-AUTH-001']));
    test('the token in the message of a refusal the diagnosis quotes (cut at 100)', async () =>
      sweep(LONG_TOKEN, TOKEN_VAR, 'refuse', withToken, ['PS-ACCEPT-001']));
    test('the token in bytes that are not HTTP (cut at 60)', async () =>
      sweep(LONG_TOKEN, TOKEN_VAR, 'garbage', withToken, ['PS-ACCEPT-001']));
    test('the value of a secret -H header in a body shown in an Actual', async () =>
      sweep(API_KEY, REDACTED, 'answer', withKey, ['PS-ACCEPT-001', 'PS-AUTH-001']));

    test('the CLI end to end: console, JSON, JUnit, HTML and HAR, with the token cut where a body is shortened', async () => {
      const echoing = await startEchoingTarget(LONG_TOKEN);
      const files = {
        json: join(dir, 'e.json'),
        junit: join(dir, 'e.junit.xml'),
        html: join(dir, 'e.html'),
        har: join(dir, 'e.har'),
      };
      try {
        for (const [kind, form, offset] of [
          ['answer', 'plain', 270],
          ['answer', 'percent', 265],
          ['refuse', 'json', 80],
        ] as const) {
          const { code, lines, stderr } = await runProcess({
            file: process.execPath,
            args: [
              CLI,
              '--target',
              echoing.url(kind, form, offset),
              '--token',
              LONG_TOKEN,
              '--cases',
              '2',
              '--seed',
              '3',
              '--json',
              files.json,
              '--junit',
              files.junit,
              '--html',
              files.html,
              '--har',
              files.har,
            ],
            env: { NO_COLOR: '1' },
            timeoutMs: 120_000,
          });
          assert.ok(code === 1 || code === 2, `${kind} ${form} ${offset}: exit ${code}: ${stderr}`);
          const texts = {
            console: lines.join('\n'),
            stderr,
            json: readFileSync(files.json, 'utf8'),
            junit: readFileSync(files.junit, 'utf8'),
            html: readFileSync(files.html, 'utf8'),
            har: readFileSync(files.har, 'utf8'),
          };
          for (const [report, text] of Object.entries(texts))
            assert.deepEqual(
              fragmentsIn(text, LONG_TOKEN),
              [],
              `${kind} ${form} at ${offset}: part of the token in the ${report} report`,
            );
          assert.ok(texts.console.includes(PROSE.trim()), 'the console shows the prose the target sent');
        }
      } finally {
        await echoing.close();
      }
    });
  },
);
