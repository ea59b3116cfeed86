// Redaction that never rewrites text that is not the secret (issue 30 item
// 8): the token is replaced where the requests use it (the Authorization
// field, a secret -H header), and in what a target echoes only when it is 8
// characters or more; a shorter one ("t", "secret", as stubs and demos
// use) is in every other word, and the run warns once instead.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../../lib/process.js';
import type { Exchange } from '../../conformance/checks/exchange.js';
import { echoesRedactable, secretRedactor } from '../../conformance/redact/secrets.js';
import { harEntry } from '../../conformance/report/har.js';
import { toCurl, TOKEN_VAR } from '../../conformance/run/curl.js';
import type { Target } from '../../conformance/model/target.js';
import { startFake } from '../support/fake-server.js';

const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plantstore-short-tokens-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A body with words that hold each short token ("t", "abc", "secret") and the token alone. */
const body = (token: string) => JSON.stringify({ id: 12, name: `Monstera tatt abcde secretly ${token}`, tag: token });

function exchange(token: string, authorization: string): Exchange {
  return {
    url: 'http://127.0.0.1:4010/plants',
    request: {
      method: 'POST',
      path: '/plants',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization },
      body: body(token),
    },
  };
}

/** The -H arguments of a curl line that carry the Authorization field. */
const authorizationArgs = (line: string) =>
  line.match(/-H "authorization: [^"]*\$PLANTSTORE_TOKEN"|-H 'authorization: [^']*'"\$PLANTSTORE_TOKEN"'[^']*'/g) ?? [];

// 1 and 3 characters, a stub's "t" and a demo's "secret"; 8 characters is the first a report redacts from echoes.
for (const token of ['t', 'abc', 'secret', 'abcdefgh']) {
  describe(`a token of ${token.length} character(s) (${token})`, { timeout: 60_000 }, () => {
    test('the curl line writes it as $PLANTSTORE_TOKEN in the Authorization field only: the other headers and the body as sent', () => {
      const line = toCurl(exchange(token, `Bearer ${token}`), token);
      assert.ok(line.includes(`-H "authorization: Bearer ${TOKEN_VAR}"`), line);
      assert.equal(line.split(TOKEN_VAR).length - 1, 1, line);
      assert.ok(line.includes(`-H 'content-type: application/json'`), line);
      assert.ok(line.includes(`--data-binary '${body(token)}'`), line);
    });

    test('the token bare, after another scheme, and with white space around it: replaced where it stands', () => {
      assert.ok(toCurl(exchange(token, token), token).includes(`-H "authorization: ${TOKEN_VAR}"`));
      assert.ok(toCurl(exchange(token, `Basic ${token}`), token).includes(`-H "authorization: Basic ${TOKEN_VAR}"`));
      const spaced = toCurl(exchange(token, ` Bearer ${token} `), token);
      assert.ok(spaced.includes(`-H 'authorization:  Bearer '"${TOKEN_VAR}"' '`), spaced);
      assert.equal(authorizationArgs(spaced).length, 1, spaced);
    });

    test('the HAR writes the Authorization field with $PLANTSTORE_TOKEN, the rest as sent', () => {
      const target = { name: 'target', url: 'http://127.0.0.1:4010', token, role: 'target', informs: false } as Target;
      const entry = harEntry(target, exchange(token, `Bearer ${token}`), { startedAt: 0, ms: 1 });
      const header = (name: string) => entry.request.headers.find((h) => h.name === name)?.value;
      assert.equal(header('authorization'), `Bearer ${TOKEN_VAR}`);
      assert.equal(header('content-type'), 'application/json');
      assert.equal(entry.request.postData?.text, body(token));
    });

    test(
      token.length >= 8
        ? 'an echo of it in a body is redacted'
        : 'an echo of it in a body is left as it is (the run warns): only "Bearer <token>" is replaced',
      () => {
        const redact = secretRedactor([token]);
        const text = `{"message": "you sent Bearer ${token} and ${body(token)}"}`;
        if (token.length >= 8) {
          assert.ok(!redact(text).includes(token));
          assert.ok(echoesRedactable(token));
        } else {
          assert.equal(redact(text), text.replace(`Bearer ${token} `, `Bearer ${TOKEN_VAR} `));
          assert.equal(echoesRedactable(token), false);
        }
      },
    );
  });
}

test(
  '--token t: every curl line and report readable, no $PLANTSTORE_TOKEN but in the Authorization field, and one warning',
  { timeout: 300_000 },
  async () => {
    // A fake whose departures give curl lines: strings coerced to numbers (PS-REJECT-002).
    const fake = await startFake({ tokens: ['t'], coerceStrings: true });
    const json = join(dir, 't.json');
    try {
      const { code, lines, stderr } = await runProcess({
        file: process.execPath,
        args: [CLI, '--target', fake.url, '--token', 't', '--cases', '3', '--seed', '5', '--json', json],
        env: { NO_COLOR: '1' },
        timeoutMs: 300_000,
      });
      assert.equal(code, 1, `${lines.join('\n')}\n${stderr}`);
      assert.equal(stderr.match(/shorter than 8 characters/g)?.length, 1, stderr);
      const stdout = lines.join('\n');
      const report = readFileSync(json, 'utf8');
      for (const [name, text] of [
        ['console', stdout],
        ['JSON report', report],
      ] as const) {
        assert.ok(text.includes('Reproduce') || text.includes('"reproduce"'), `${name} has reproduce lines`);
        // A word cut by the variable: 'con'"$PLANTSTORE_TOKEN"'en', Mons"$PLANTSTORE_TOKEN"era.
        assert.doesNotMatch(text, /[A-Za-z]'?"?\$PLANTSTORE_TOKEN"?'?[A-Za-z]/, name);
        const outsideAuthorization = text.replace(
          /Authorization: (Bearer |bearer |BEARER |bEaReR |Basic |Token )?\s*\$PLANTSTORE_TOKEN/gi,
          '',
        );
        assert.doesNotMatch(
          outsideAuthorization.replace(/Bearer\s+\$PLANTSTORE_TOKEN/gi, ''),
          /\$PLANTSTORE_TOKEN/,
          `${name}: the token replaced outside the credential`,
        );
      }
      assert.match(stdout, /content-type: application\/json/i);
    } finally {
      await fake.close();
    }
  },
);
