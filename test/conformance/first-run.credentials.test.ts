// First runs against a document whose operations need another credential
// than a bearer token (issue 42, item 4), through the CLI as a new user
// runs it: the diagnosis names the scheme the document declares, where its
// credential goes and what to set (never "a gateway before the target");
// --credential, PLANTSTORE_CREDENTIAL or a -H header named like the API key
// makes the run go through, with no check of where credentials go failed
// on a correct server; a credential for a scheme the document does not
// declare stops the run before anything is sent.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { fixturePath } from '../support/fixtures.js';
import { assertNotChecked, cliIn, scratchFolder } from '../support/first-run-cli.js';
import { startSecuredFake, type SecuredFake } from '../support/fake-secured.js';
import { FAKE_CREDENTIALS, type SecuredFixture } from '../support/fake-secured-breaks.js';

const cli = cliIn(scratchFolder());

async function withSecured<T>(fixture: SecuredFixture, body: (fake: SecuredFake) => Promise<T>): Promise<T> {
  const fake = await startSecuredFake(fixture);
  try {
    return await body(fake);
  } finally {
    await fake.close();
  }
}

const spec = (fixture: SecuredFixture) => ['--spec', fixturePath(`documents/${fixture}.yaml`)];

// The runs that go through check the CLI's part: a flag or header given on the command line reaches the requests as
// the credential of its scheme. They run the checks that show where a credential went, not the whole catalog: that
// no check fails these fakes, every credential given, is any-scheme.test.ts's (in process), and that no report shows
// a credential, credential-redaction.test.ts's. Each list was tried against the harness with that part broken.
/** Each credential where its scheme says (a query key sent as a header fails PS-OP-006, a cookie lost PS-OP-002). */
const EACH_ALTERNATIVE = ['PS-ACCEPT-001', 'PS-OP-001', 'PS-OP-002', 'PS-OP-004', 'PS-OP-006', 'PS-OP-007'];
/** A -H credential left out where a check sends none (sent there, it fails PS-AUTH-001, 007, PS-OP-004, PS-DOC-001). */
const LEFT_OUT_WITHOUT = [
  'PS-ACCEPT-001',
  'PS-AUTH-001',
  'PS-AUTH-007',
  'PS-OP-001',
  'PS-OP-002',
  'PS-OP-004',
  'PS-DOC-001',
];

describe('first runs against a document that needs an API key, HTTP Basic or a cookie', { timeout: 300_000 }, () => {
  it('no credential: the diagnosis names the API key, its header and its scheme, and says to set --credential', () =>
    withSecured('api-key', async (fake) => {
      const run = await cli([...spec('api-key'), '--target', fake.url]);
      assertNotChecked(
        run,
        /not checked: no credential was given for the API key X-API-Key \(apiKey in header, scheme plantKey\), and the target requires one/,
      );
      assert.match(run.output, /Set --credential plantKey=… \(or a line NAME=VALUE of PLANTSTORE_CREDENTIAL/);
      assert.doesNotMatch(run.output, /gateway before the target/);
    }));

  it('a wrong credential: the diagnosis says which was refused, and where it came from, without showing it', () =>
    withSecured('api-key', async (fake) => {
      const wrong = 'a-wrong-key-0123456789';
      const run = await cli([...spec('api-key'), '--target', fake.url], { PLANTSTORE_CREDENTIAL: `plantKey=${wrong}` });
      assertNotChecked(
        run,
        /the credentials were refused: the API key X-API-Key \(apiKey in header, scheme plantKey\) from PLANTSTORE_CREDENTIAL plantKey/,
      );
      assert.ok(!run.output.includes(wrong), 'the credential is not shown');
    }));

  it('Basic or a query key: the diagnosis names both alternatives and what to set for each', () =>
    withSecured('auth-alternatives', async (fake) => {
      const run = await cli([...spec('auth-alternatives'), '--target', fake.url]);
      assertNotChecked(run, /no credential was given for HTTP Basic credentials \(scheme basicAuth\)/);
      assert.match(run.output, /--credential basicAuth=USER:PASSWORD/);
      assert.match(run.output, /another alternative: --credential queryKey=…/);
    }));

  it('--credential puts each credential where its scheme says: the run goes through, and the checks of where they go pass a correct server', () =>
    withSecured('auth-alternatives', async (fake) => {
      const run = await cli([
        ...spec('auth-alternatives'),
        '--target',
        fake.url,
        '--credential',
        `basicAuth=${FAKE_CREDENTIALS.basicAuth}`,
        '--credential',
        `queryKey=${FAKE_CREDENTIALS.queryKey}`,
        '--credential',
        `adminSession=${FAKE_CREDENTIALS.adminSession}`,
        '--invalid-token',
        '--only',
        EACH_ALTERNATIVE.join(','),
      ]);
      assert.equal(run.code, 0, run.output);
      assert.doesNotMatch(run.output, /not checked/);
      for (const value of Object.values(FAKE_CREDENTIALS))
        assert.ok(!run.output.includes(value), 'no credential in the output');
    }));

  it('a credential given for some schemes but not for another an operation needs: a warning names it and the operations', () =>
    withSecured('auth-alternatives', async (fake) => {
      const run = await cli([
        ...spec('auth-alternatives'),
        '--target',
        fake.url,
        '--credential',
        `basicAuth=${FAKE_CREDENTIALS.basicAuth}`,
        '--only',
        'PS-OP-001',
      ]);
      assert.match(
        run.stderr,
        /warning: no credential was given for the API key admin_session \(apiKey in cookie, scheme adminSession\), which DELETE \/plants\/\{id\} needs: target \(http:[^)]*\) gets a placeholder \(--credential adminSession=…\)/,
      );
    }));

  it('a -H header named like the API key is its credential: sent where the scheme says, and left out where a check sends none', () =>
    withSecured('api-key', async (fake) => {
      const run = await cli([
        ...spec('api-key'),
        '--target',
        fake.url,
        '-H',
        `X-API-Key: ${FAKE_CREDENTIALS.plantKey}`,
        '--only',
        LEFT_OUT_WITHOUT.join(','),
      ]);
      assert.equal(run.code, 0, run.output);
    }));

  it('a cookie the document declares, from a -H Cookie, with another cookie beside it', () =>
    withSecured('cookie-public-reads', async (fake) => {
      const run = await cli([
        ...spec('cookie-public-reads'),
        '--target',
        fake.url,
        '-H',
        `Cookie: theme=dark; plant_session=${FAKE_CREDENTIALS.session}`,
        '--only',
        LEFT_OUT_WITHOUT.join(','),
      ]);
      assert.equal(run.code, 0, run.output);
    }));

  it('a credential for a scheme the document does not declare stops the run before anything is sent', async () => {
    const run = await cli([...spec('api-key'), '--target', 'http://127.0.0.1:9', '--credential', 'plantkey=x']);
    assert.equal(run.code, 2, run.output);
    assert.match(
      run.output,
      /--credential plantkey: the document declares no security scheme "plantkey" \(did you mean plantKey\?\)/,
    );
  });
});
