// The redactors and the escaping of what a target sent, on their own: the
// token in every form it may come back in, any run of 8 characters of a
// secret and nothing shorter (prose stays), redaction before a cut, and
// control characters written visibly. Through the reports:
// harness-output.test.ts and secret-fragments.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { escapeControls } from '../../conformance/redact/escape.js';
import { literalRedactor, secretRedactor } from '../../conformance/redact/secrets.js';
import { REDACTED, shorten } from '../../conformance/redact/shorten.js';
import { TOKEN_VAR } from '../../conformance/run/curl.js';
import { API_KEY, ECHO_FORMS, echoed, fragmentsIn, LONG_TOKEN, PROSE } from '../support/echoing-target.js';

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

test('fragmentsIn, the search the report tests rest on, finds every run of 8 of a secret in each form and any case, and nothing shorter', () => {
  for (const form of ECHO_FORMS) {
    const written = echoed(LONG_TOKEN, form);
    for (let start = 0; start + 8 <= written.length; start++) {
      const run = written.slice(start, start + 8);
      // At each offset modulo 8, in any letter case.
      for (const before of ['', '|', '||', '|||', '||||', '|||||', '||||||', '|||||||'])
        for (const text of [
          `${before}${run}${PROSE}`,
          `${PROSE}${before}${run.toUpperCase()}`,
          `${before}${run.toLowerCase()}`,
        ])
          assert.ok(fragmentsIn(text, LONG_TOKEN).includes(run), `${form}: ${run} in ${text}`);
      // Seven of its characters, between characters no secret holds.
      assert.deepEqual(fragmentsIn(`${PROSE}|${run.slice(1)}|${run.slice(0, 7)}|${PROSE}`, LONG_TOKEN), []);
    }
  }
  assert.deepEqual(fragmentsIn(PROSE.repeat(1000), LONG_TOKEN), []);
});
