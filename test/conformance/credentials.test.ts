// Credentials of any security scheme, as data (issue 42, item 4): the
// options that give them (--credential, PLANTSTORE_CREDENTIAL, the
// configuration file) and what they refuse once the document is read; where
// each scheme's credential goes on a request, which alternative a request
// satisfies, what "no credentials" strips (the -H headers that carry one
// included); the challenge a refusal must carry; and a refusal in problem
// details told apart from, or recognised as, the answer to a duplicate.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseCliArgs } from '../../conformance/cli/args.js';
import { checkCredentials } from '../../conformance/cli/credentials.js';
import { UsageError } from '../../conformance/cli/values.js';
import {
  credentialFor,
  defaultAlternative,
  PLACEHOLDER_BASIC,
  withCredentials,
  withoutCredentials,
  withOperationCredentials,
  withTargetHeaders,
} from '../../conformance/checks/credentials.js';
import { challengeProblem, challengeRule, gradeUnauthorized } from '../../conformance/checks/auth-grades.js';
import { sameDuplicateAnswer } from '../../conformance/checks/body-grades.js';
import type { Exchange, RequestSpec } from '../../conformance/checks/exchange.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { declaredSchemes } from '../../conformance/model/security.js';
import { PLACEHOLDER_TOKEN, type Target } from '../../conformance/model/target.js';
import { fixturePath } from '../support/fixtures.js';
import { credentialDiagnosis } from '../../conformance/run/diagnose-credentials.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-credentials-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const apiKey = loadSpecModel(fixturePath('documents/api-key.yaml'));
const alternatives = loadSpecModel(fixturePath('documents/auth-alternatives.yaml'));
const oauth = loadSpecModel(fixturePath('documents/oauth2-scopes.yaml'));
const op = (model: typeof apiKey, method: string, path: string) =>
  model.operations.find((o) => o.method === method && o.path === path)!;

const target = (extra: Partial<Target> = {}): Target => ({
  name: 't',
  url: 'http://127.0.0.1:1',
  token: 'the-token-0123456789',
  tokenFrom: '--token',
  role: 'target',
  informs: false,
  restrictsTokens: true,
  ...extra,
});
const request = (path = '/plants'): RequestSpec => ({ method: 'POST', path, headers: {} });

describe('--credential SCHEME=VALUE', { timeout: 30_000 }, () => {
  it('comes from the flag (repeatable), the environment (one per line) or the configuration file (a mapping)', () => {
    const none = mkdtempSync(join(dir, 'none-'));
    const flags = parseCliArgs(['--credential', 'plantKey=k1', '--credential', 'basicAuth=u:p:w'], {}, none);
    assert.deepEqual(
      flags.credentials.map((c) => [c.scheme, c.value, c.from]),
      [
        ['plantKey', 'k1', '--credential plantKey'],
        ['basicAuth', 'u:p:w', '--credential basicAuth'],
      ],
    );
    const env = parseCliArgs([], { PLANTSTORE_CREDENTIAL: 'plantKey=k2\nqueryKey=q=2' }, none);
    assert.deepEqual(
      env.credentials.map((c) => [c.scheme, c.value]),
      [
        ['plantKey', 'k2'],
        ['queryKey', 'q=2'],
      ],
    );
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    writeFileSync(join(cwd, 'plantstore.conformance.yaml'), 'credential:\n  plantKey: ${KEY}\n');
    const file = parseCliArgs([], { KEY: 'from-the-environment-1' }, cwd);
    assert.deepEqual(
      file.credentials.map((c) => [c.scheme, c.value]),
      [['plantKey', 'from-the-environment-1']],
    );
    assert.ok(file.secrets.includes('from-the-environment-1'), 'what ${VAR} gave is a secret');
  });

  it('refuses a value it cannot send, without echoing it', () => {
    const none = mkdtempSync(join(dir, 'none-'));
    const refused = (argv: string[], message: RegExp) =>
      assert.throws(
        () => parseCliArgs(argv, {}, none),
        (err: unknown) => err instanceof UsageError && message.test(err.message) && !err.message.includes('s3cret'),
      );
    refused(['--credential', 's3cret'], /a credential is written SCHEME=VALUE/);
    refused(['--credential', 'plantKey='], /the credential is empty/);
    refused(['--credential', 'plantKey=s3cret\r\nX-Injected: 1'], /cannot hold control characters/);
    refused(['--credential', 'plantKey=s3cret', '--credential', 'plantKey=s3cret2'], /plantKey: given twice/);
  });

  it('once the document is read: a scheme it declares (the nearest named), of a kind the harness sends, Basic with a colon', () => {
    const given = (scheme: string, value: string) => [{ scheme, value, from: `--credential ${scheme}` }];
    assert.doesNotThrow(() => checkCredentials(alternatives, given('basicAuth', 'gardener:secret')));
    assert.throws(
      () => checkCredentials(alternatives, given('basicauth', 'gardener:secret')),
      /declares no security scheme "basicauth" \(did you mean basicAuth\?\); its schemes: basicAuth, queryKey, adminSession/,
    );
    assert.throws(() => checkCredentials(alternatives, given('basicAuth', 'no-colon')), /takes USER:PASSWORD/);
  });
});

describe('where each credential goes', () => {
  it('an API key in its header, query parameter or cookie; Basic as base64; a bearer token after Bearer', () => {
    const [basic, query, cookie] = declaredSchemes(alternatives.doc);
    const [header] = declaredSchemes(apiKey.doc);
    const sent = withCredentials({ ...request('/plants?limit=1'), headers: { cookie: 'a=b' } }, [
      { scheme: header!, value: 'key/1+2' },
      { scheme: query!, value: 'q y&z' },
      { scheme: cookie!, value: 'c=1;2' },
      { scheme: basic!, value: 'gardener:p@ss' },
    ]);
    assert.equal(sent.headers['x-api-key'], 'key/1+2');
    assert.equal(sent.path, '/plants?limit=1&api_key=q%20y%26z');
    assert.equal(sent.headers.cookie, `a=b; admin_session=${encodeURIComponent('c=1;2')}`);
    assert.equal(sent.headers.authorization, `Basic ${Buffer.from('gardener:p@ss').toString('base64')}`);
    const [bearer] = declaredSchemes(oauth.doc);
    assert.equal(withCredentials(request(), [{ scheme: bearer!, value: 't' }]).headers.authorization, 'Bearer t');
  });

  it('no credentials: none of any scheme the document declares, nor Authorization; other headers, parameters and cookies kept', () => {
    const schemes = declaredSchemes(alternatives.doc);
    const stripped = withoutCredentials(
      {
        method: 'GET',
        path: '/plants?limit=2&api_key=k&x=1',
        headers: { authorization: 'Basic abc', cookie: 'admin_session=s; theme=dark', 'x-other': '1' },
      },
      schemes,
    );
    assert.equal(stripped.path, '/plants?limit=2&x=1');
    assert.deepEqual(stripped.headers, { cookie: 'theme=dark', 'x-other': '1' });
  });

  it("the target's -H headers: every one but those that carry a declared scheme's credential, a -H Cookie joined to the request's", () => {
    const schemes = [...declaredSchemes(apiKey.doc), ...declaredSchemes(alternatives.doc)];
    const sent = withTargetHeaders(
      { method: 'GET', path: '/plants', headers: { cookie: 'own=1' } },
      { 'X-API-Key': 'from-h', 'X-Gateway': 'g', Cookie: 'admin_session=s; lb=2' },
      schemes,
    );
    assert.deepEqual(sent.headers, { cookie: 'own=1; lb=2', 'X-Gateway': 'g' });
  });

  it('the value of a scheme: --credential, the token for a bearer scheme, a -H header named like an API key, else a placeholder', () => {
    const [header] = declaredSchemes(apiKey.doc);
    const [basic, , cookie] = declaredSchemes(alternatives.doc);
    const [bearer] = declaredSchemes(oauth.doc);
    assert.deepEqual(credentialFor(target(), bearer!), { value: 'the-token-0123456789', from: '--token' });
    assert.deepEqual(credentialFor(target({ headers: { 'x-api-key': 'h' } }), header!), {
      value: 'h',
      from: '-H x-api-key',
    });
    assert.deepEqual(credentialFor(target({ headers: { Cookie: 'admin_session=s2' } }), cookie!), {
      value: 's2',
      from: '-H Cookie',
    });
    assert.deepEqual(
      credentialFor(
        target({ credentials: [{ scheme: 'plantKey', value: 'k', from: 'PLANTSTORE_CREDENTIAL plantKey' }] }),
        header!,
      ),
      { value: 'k', from: 'PLANTSTORE_CREDENTIAL plantKey' },
    );
    assert.deepEqual(credentialFor(target(), basic!), { value: PLACEHOLDER_BASIC });
    assert.deepEqual(credentialFor(target(), header!), { value: PLACEHOLDER_TOKEN });
  });

  it('a request built by hand carries the credentials of the operation it goes to; none where it goes to no declared one', () => {
    const given = target({ credentials: [{ scheme: 'plantKey', value: 'k', from: '--credential plantKey' }] });
    const read = withOperationCredentials(apiKey, given, { method: 'DELETE', path: '/plants/7', headers: {} });
    assert.deepEqual(read.headers, { 'x-api-key': 'k' });
    const elsewhere = withOperationCredentials(apiKey, given, { method: 'GET', path: '/nowhere', headers: {} });
    assert.deepEqual(elsewhere.headers, {});
  });

  it('which alternative a request satisfies: the first whose credentials were all given, else the first; none for security: []', () => {
    const create = op(alternatives, 'POST', '/plants');
    assert.deepEqual(
      defaultAlternative(target(), create)!.map((s) => s.name),
      ['basicAuth'],
    );
    const keyGiven = target({ credentials: [{ scheme: 'queryKey', value: 'q', from: '--credential queryKey' }] });
    assert.deepEqual(
      defaultAlternative(keyGiven, create)!.map((s) => s.name),
      ['queryKey'],
    );
    assert.deepEqual(defaultAlternative(target(), op(alternatives, 'GET', '/plants')), []);
    assert.deepEqual(
      defaultAlternative(target(), op(alternatives, 'DELETE', '/plants/{id}'))!.map((s) => s.name),
      ['basicAuth', 'adminSession'],
    );
  });
});

describe('the challenge a refusal carries', () => {
  const refusal = (header?: string): Exchange => ({
    request: request(),
    url: 'http://127.0.0.1:1/plants',
    response: {
      status: 401,
      headers: header === undefined ? {} : { 'www-authenticate': header },
      bodyText: '',
    },
  });
  it('Bearer with an auth-param where every alternative needs a bearer token (oauth2, openIdConnect too)', () => {
    const rule = challengeRule(op(oauth, 'GET', '/plants/{id}').security);
    assert.deepEqual(rule.schemes, ['Bearer']);
    assert.equal(challengeProblem(refusal('Bearer realm="p"'), rule), undefined);
    assert.match(challengeProblem(refusal('Bearer'), rule)!.cause, /no auth-param/);
  });
  it('Basic with a realm where every alternative needs Basic; any challenge where the alternatives share none', () => {
    const both = challengeRule(op(alternatives, 'DELETE', '/plants/{id}').security);
    assert.deepEqual(both.schemes, ['Basic']);
    assert.match(challengeProblem(refusal('Basic charset="UTF-8"'), both)!.cause, /no realm/);
    assert.match(challengeProblem(refusal('Bearer realm="p"'), both)!.cause, /no Basic challenge/);
    const either = challengeRule(op(alternatives, 'POST', '/plants').security);
    assert.deepEqual(either.schemes, []);
    assert.equal(challengeProblem(refusal('ApiKey realm="p"'), either), undefined);
  });
  it('an API key: a 401 must still carry a challenge (RFC 9110 §15.5.2); a 403 without one is non-strict', () => {
    const rule = challengeRule(op(apiKey, 'POST', '/plants').security);
    assert.equal(gradeUnauthorized(refusal(), { rule }).outcome, 'fail');
    const forbidden: Exchange = { ...refusal(), response: { status: 403, headers: {}, bodyText: '' } };
    assert.equal(gradeUnauthorized(forbidden, { rule }).outcome, 'non-strict');
  });
});

describe('a refusal in any JSON media type compared with the answer to a duplicate', () => {
  const problem = (status: number, body: Record<string, unknown>): Exchange => ({
    request: request(),
    url: 'http://127.0.0.1:1/plants',
    response: { status, headers: { 'content-type': 'application/problem+json' }, bodyText: JSON.stringify(body) },
  });
  const duplicate = (id: number, instance: string) =>
    problem(400, {
      type: 'https://plants.example/problems/duplicate',
      title: 'Duplicate id',
      status: 400,
      detail: `A plant with id ${id} is already stored.`,
      instance,
    });
  it('problem details naming the id: the same answer, whatever each occurrence is called (instance)', () => {
    assert.equal(sameDuplicateAnswer(duplicate(7, '/refusals/1'), 7n, duplicate(9, '/refusals/2'), 9n), 'same');
  });
  it('another problem type, or another status member: another answer', () => {
    const other = problem(400, {
      type: 'https://plants.example/problems/invalid',
      title: 'Duplicate id',
      status: 400,
      detail: 'A plant with id 7 is already stored.',
    });
    assert.equal(sameDuplicateAnswer(other, 7n, duplicate(9, '/r'), 9n), 'different');
  });
  it('only the members the document declares, where it names them: an undeclared time stamp does not tell them apart', () => {
    const a = problem(400, { title: 'Duplicate', detail: 'id 7 taken', at: '2026-01-01T00:00:00Z' });
    const b = problem(400, { title: 'Duplicate', detail: 'id 9 taken', at: '2026-01-01T00:00:01Z' });
    assert.equal(sameDuplicateAnswer(a, 7n, b, 9n), 'different');
    assert.equal(sameDuplicateAnswer(a, 7n, b, 9n, 'exact', ['title', 'detail']), 'same');
  });
  it('an error record under a member of its own ({"error": {"code", "message"}}): compared inside it', () => {
    const nested = (id: number, code: number) =>
      problem(400, { error: { code, message: `A plant with id ${id} already exists.` } });
    assert.equal(sameDuplicateAnswer(nested(7, 40004), 7n, nested(9, 40004), 9n, 'exact', ['error']), 'same');
    assert.equal(sameDuplicateAnswer(nested(7, 40001), 7n, nested(9, 40004), 9n, 'exact', ['error']), 'different');
  });
});

describe('the diagnosis of a credential refused', () => {
  const create = op(apiKey, 'POST', '/plants');
  const key = declaredSchemes(apiKey.doc);
  it('none given: names the scheme, where it goes and what to set', () => {
    const d = credentialDiagnosis(target(), create, key, '401');
    assert.equal(d.kind, 'no-credential');
    assert.match(d.problem, /the API key X-API-Key \(apiKey in header, scheme plantKey\)/);
    assert.match(d.fix, /^Set --credential plantKey=…/);
  });
  it('given and refused: says where it came from', () => {
    const given = target({ credentials: [{ scheme: 'plantKey', value: 'k', from: '--credential plantKey' }] });
    const d = credentialDiagnosis(given, create, key, '401');
    assert.equal(d.kind, 'credential-refused');
    assert.match(d.problem, /from --credential plantKey/);
    assert.ok(!JSON.stringify(d).includes('"k"'));
  });
  it('a server the harness started: no --credential reaches it, and the fix says so', () => {
    const d = credentialDiagnosis(target({ role: 'reference' }), create, key, '401');
    assert.match(d.fix, /--credential goes to the --targets/);
  });
});
