// The harness's output against a hostile target, end to end through the
// CLI: what the target sends is shown with its control characters escaped,
// and the credential the harness sent appears in no report (console, JSON,
// JUnit, HTML); a --target URL with user information is refused without
// echoing it. Any run of 8 characters of a secret, wherever a shortening cut
// it: secret-fragments.test.ts; the redactors themselves: redaction.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../../lib/process.js';
import { TOKEN_VAR } from '../../conformance/run/curl.js';
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
