// The harness's output against a hostile target: what the target sends is
// shown with its control characters escaped, and no credential the harness
// sent, nor any run of 8 of its characters, appears in any report (console,
// JSON, JUnit, HTML, HAR, the Action's job summary), wherever a shortening
// cut it; a --target URL with user information is refused without echoing
// it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../../lib/process.js';
import { escapeControls } from '../../conformance/redact/escape.js';
import { literalRedactor, secretRedactor } from '../../conformance/redact/secrets.js';
import { REDACTED, shorten } from '../../conformance/redact/shorten.js';
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
  ECHO_FORMS,
  echoed,
  fragmentsIn,
  prose,
  PROSE,
  startEchoingTarget,
  type EchoKind,
} from '../support/echoing-target.js';
import { startFake } from '../support/fake-server.js';
import { keepIdleConnectionsOpen } from '../support/keep-alive.js';

const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));
const TOKEN = 'harness-secret-token-42';
/** What a terminal obeys: a window title (OSC), clear screen (CSI), bell, C1 CSI, a right-to-left override. */
const CONTROLS = '\x1b]0;owned\x07\x1b[2J\x9b31m\u202eevil';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-harness-output-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A target that answers every request 400, echoing the credentials it got (as is, base64, percent-encoded, upper case) next to raw terminal controls. */
async function echoingTarget(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      const authorization = request.headers.authorization ?? '';
      const message = `you sent ${authorization} ${Buffer.from(`user:${TOKEN}`).toString('base64')} ${encodeURIComponent(authorization)} ${TOKEN.toUpperCase()} ${CONTROLS}`;
      response.writeHead(400, { 'content-type': 'application/json', 'x-echo': authorization });
      // The controls raw, as bytes: JSON.stringify would escape the C0 ones.
      response.end(`{"error": 1, "message": "${message}"}`);
    });
  });
  keepIdleConnectionsOpen(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test(
  'a target that echoes the token and sends terminal controls: every report shows $PLANTSTORE_TOKEN and escapes, never the token or a control character',
  { timeout: 120_000 },
  async () => {
    const target = await echoingTarget();
    const files = { json: join(dir, 'r.json'), junit: join(dir, 'r.junit.xml'), html: join(dir, 'r.html') };
    try {
      const { code, lines, stderr } = await runProcess({
        file: process.execPath,
        args: [
          CLI,
          '--target',
          target.url,
          '--token',
          TOKEN,
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
        ],
        env: { NO_COLOR: '1' },
        timeoutMs: 120_000,
      });
      assert.equal(code, 1, `the target fails checks: ${stderr}`);
      const console = lines.join('\n');
      const reports = {
        console,
        stderr,
        json: readFileSync(files.json, 'utf8'),
        junit: readFileSync(files.junit, 'utf8'),
        html: readFileSync(files.html, 'utf8'),
      };
      for (const [name, text] of Object.entries(reports)) {
        assert.ok(!text.toLowerCase().includes(TOKEN.toLowerCase()), `the token in the ${name} report`);
        assert.ok(
          !text.includes(Buffer.from(`user:${TOKEN}`).toString('base64')),
          `a Basic credential made from the token in the ${name} report`,
        );
      }
      assert.ok(reports.json.includes(TOKEN_VAR), 'the JSON report names the token $PLANTSTORE_TOKEN');
      assert.ok(console.includes(`you sent Bearer ${TOKEN_VAR}`), 'the console shows where the token stood');

      const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
      assert.doesNotMatch(console, control, 'no control character reaches the terminal');
      assert.ok(console.includes('\\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\u202eevil'), 'the controls are shown escaped');
    } finally {
      await target.close();
    }
  },
);

test(
  '--target with user information is refused with exit 2, and the password is not echoed',
  { timeout: 120_000 },
  async () => {
    for (const url of [
      'http://user:pa55word@127.0.0.1:1',
      'http://pa55word@127.0.0.1:1/api',
      'http://user:pa55@word/x@127.0.0.1:1',
      'http://:pa55word@127.0.0.1:1',
    ]) {
      const { code, stderr, lines } = await runProcess({
        file: process.execPath,
        args: [CLI, '--target', url],
        timeoutMs: 30_000,
      });
      assert.equal(code, 2, url);
      assert.match(stderr, /user information \(user:password@\) is refused|is not a URL/, url);
      assert.ok(!`${stderr}${lines.join('\n')}`.includes('pa55'), `${url} echoed: ${stderr}`);
    }
  },
);

test(
  'secretRedactor: the token as written, JSON-escaped, percent-encoded, in another case, a near miss, and base64 of a Basic credential',
  { timeout: 120_000 },
  () => {
    const token = 'abc/DEF+ghi.123==';
    const redact = secretRedactor([token]);
    assert.equal(redact(`Bearer ${token}`), `Bearer ${TOKEN_VAR}`);
    assert.equal(redact(`"Bearer abc\\/DEF+ghi.123=="`), `"Bearer ${TOKEN_VAR}"`);
    assert.equal(redact(`q=${encodeURIComponent(token)}`), `q=${TOKEN_VAR}`);
    assert.equal(redact(`x ${token.toUpperCase()} y`), `x ${REDACTED} y`);
    assert.equal(redact(`x ${token}9 y`), `x ${TOKEN_VAR}9 y`);
    assert.equal(redact(`x ${token.slice(0, -1)} y`), `x ${REDACTED} y`, 'a character fewer');
    assert.equal(redact(`Basic ${Buffer.from(`me:${token}`).toString('base64')}`), `Basic ${REDACTED}`);
    assert.equal(
      redact('Bearer realm="plantstore", error="invalid_token"'),
      'Bearer realm="plantstore", error="invalid_token"',
      'a challenge is not a credential',
    );
    assert.equal(redact('a name of a plant, 400 Bad Request'), 'a name of a plant, 400 Bad Request');
    const short = secretRedactor(['t']);
    assert.equal(short('Bearer t'), `Bearer ${TOKEN_VAR}`);
    assert.equal(short('the text stays'), 'the text stays', 'a short token counts only where it stands alone');
  },
);

test(
  'escapeControls: C0, DEL, C1 and bidirectional controls are written visibly; text and emoji are kept',
  { timeout: 120_000 },
  () => {
    assert.equal(
      escapeControls('a\x1b[2Jb\x07\x7f\x85\u202e\u2066\n\t'),
      'a\\x1b[2Jb\\x07\\x7f\\x85\\u202e\\u2066\\n\\t',
    );
    assert.equal(escapeControls('Monstera 🌱 é ü'), 'Monstera 🌱 é ü');
    assert.equal(escapeControls(escapeControls('\x1b')), '\\x1b', 'escaping twice changes nothing more');
  },
);

/** A 40-character token with every b64token character class: "/" (JSON-escaped as "\\/"), "+" and "=" (percent-encoded), "." "~" "-" "_". */
const LONG_TOKEN = 'Zq7/Kp+Rw9.Xt~Lm-Nb_Vc3/Hd8+Jf2.Gs5~Ty6=';
/** The value of a -H header whose name looks secret. */
const API_KEY = 'k3y/Vx+Pq8.Wm~Rt-Ls_Nz4/Bg7+Cd2.Fh9~Jy5=';

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

describe('redaction: any run of 8 characters of a secret, and nothing shorter', { timeout: 60_000 }, () => {
  test('secretRedactor: a fragment of 8 or more characters of the token, plain, JSON-escaped or percent-encoded, at either end of a text or inside it', () => {
    const redact = secretRedactor([LONG_TOKEN]);
    for (const form of ECHO_FORMS) {
      const written = echoed(LONG_TOKEN, form);
      for (let length = 8; length <= written.length; length++) {
        for (const start of [0, written.length - length, Math.floor((written.length - length) / 2)]) {
          const piece = written.slice(start, start + length);
          for (const text of [`${piece} tail`, `head ${piece}`, `${PROSE}${piece}${PROSE}`, piece.toUpperCase()]) {
            assert.deepEqual(
              fragmentsIn(redact(text), LONG_TOKEN),
              [],
              `${form}: ${JSON.stringify(text)} -> ${JSON.stringify(redact(text))}`,
            );
          }
        }
      }
    }
    assert.equal(redact(`a ${LONG_TOKEN} b`), `a ${TOKEN_VAR} b`, 'the whole token still reads $PLANTSTORE_TOKEN');
    assert.equal(redact(`a ${LONG_TOKEN.slice(0, 22)}`), `a ${REDACTED}`);
  });

  test('literalRedactor: a fragment of 8 or more characters of a secret header value', () => {
    const redact = literalRedactor([API_KEY]);
    for (const form of ECHO_FORMS) {
      const written = echoed(API_KEY, form);
      for (let start = 0; start + 8 <= written.length; start++) {
        const text = `${PROSE}${written.slice(start)}`;
        assert.deepEqual(fragmentsIn(redact(text), API_KEY), [], `${form}: ${JSON.stringify(text)}`);
      }
    }
  });

  test('prose is not over-redacted: words, a short common word that is in the token, fewer than 8 of its characters', () => {
    const token = 'plant-Monstera-Tropical-2024';
    const redact = secretRedactor([token]);
    // Words of the token, each shorter than 8 characters, and 8-character words that are not in it.
    const words = 'A plant of 2024: the Monster of the Tropics is not a valid name (plant, tropic, monster, planters).';
    assert.equal(redact(words), words);
    assert.equal(redact('a name of a plant, 400 Bad Request'), 'a name of a plant, 400 Bad Request');
    assert.equal(redact('Monstera-Tro'), REDACTED, 'twelve characters of the token are');
    assert.equal(literalRedactor(['session-cookie-value'])('a session and a cookie'), 'a session and a cookie');
  });

  test('shorten: redacts, then cuts, so that a cut never leaves part of a secret', () => {
    const redact = secretRedactor([LONG_TOKEN]);
    for (let offset = 0; offset <= 320; offset++) {
      const body = `${'x'.repeat(offset)}${LONG_TOKEN}${'y'.repeat(400)}`;
      const shown = shorten(body, 300, redact, { count: true });
      assert.deepEqual(fragmentsIn(shown, LONG_TOKEN), [], `offset ${offset}: ${shown}`);
      assert.match(shown, /… \(\d+ chars\)$/);
      if (offset <= 300 - TOKEN_VAR.length)
        assert.ok(shown.includes(TOKEN_VAR), `offset ${offset}: the token is shown as ${TOKEN_VAR} before the cut`);
    }
    assert.equal(shorten('short', 300, redact, { count: true }), 'short');
  });
});
