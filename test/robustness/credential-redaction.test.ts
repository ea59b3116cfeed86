// Every kind of credential the harness sends (issue 42, item 4), as
// --credential gives it, redacted as the token is: an API key in a header,
// in the query and in a cookie, HTTP Basic (as given, as the base64 it is
// sent as, and its password alone), a bearer token of an oauth2 scheme. A
// target echoes everything it received (every field value, the request
// target with its query, the Basic credential decoded) in each answer's body
// and in a header; no run of 8 of any credential's characters reaches a
// report (console, JSON with its curl lines, JUnit, HTML) or the HAR.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { closingLine, renderConsole, whatFailedLines } from '../../conformance/report/console.js';
import { HarWriter } from '../../conformance/report/har.js';
import { toHtml } from '../../conformance/report/html.js';
import { toJsonReport } from '../../conformance/report/json.js';
import { toJunit } from '../../conformance/report/junit.js';
import { credentialSecrets } from '../../conformance/redact/secrets.js';
import { exitCode, runResult } from '../../conformance/run/result.js';
import { run } from '../../conformance/run/runner.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import type { GivenCredential, Target } from '../../conformance/model/target.js';
import { fragmentsIn } from '../support/echoing-target.js';
import { fixturePath } from '../support/fixtures.js';
import { keepIdleConnectionsOpen } from '../support/keep-alive.js';

/** Credentials with every character class a report might escape or encode: "/", "+", "=", ".", "~", "-", "_". */
const CREDENTIALS: Record<string, string> = {
  plantKey: 'hdr/Key+Vx8.Wm~Rt-Ls_Nz4=',
  queryKey: 'qry/Key+Pq7.Tn~Yu-Io_Pa3=',
  adminSession: 'cki/Ses+Df6.Gh~Jk-Lz_Xc2=',
  basicAuth: 'gardener:pwd/Bas+Vb5.Nm~Qw-Er_Ty1=',
  oauth: 'tok/Oau+Ui9.Op~As-Df_Gh0=',
};

/** A target that answers 400 to every request, echoing all it received. */
async function echoingEverything(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      const basic = /^basic +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const echoed = [
        request.url ?? '',
        decodeURIComponent(request.url ?? ''),
        ...Object.values(request.headers).map(String),
        basic ? Buffer.from(basic, 'base64').toString('utf8') : '',
      ].join(' | ');
      response.writeHead(400, { 'content-type': 'application/json', 'x-echo': encodeURIComponent(echoed) });
      response.end(JSON.stringify({ error: 40001, message: `you sent ${echoed}` }));
    });
  });
  keepIdleConnectionsOpen(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('credentials of every scheme are redacted in every report', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-credential-redaction-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [fixture, schemes] of [
    ['api-key', ['plantKey']],
    ['auth-alternatives', ['basicAuth', 'queryKey', 'adminSession']],
    ['oauth2-scopes', ['oauth']],
  ] as const) {
    test(`${fixture}: ${schemes.join(', ')}`, async () => {
      const model = loadSpecModel(fixturePath(`documents/${fixture}.yaml`));
      const echoing = await echoingEverything();
      const credentials: GivenCredential[] = schemes.map((scheme) => ({
        scheme,
        value: CREDENTIALS[scheme]!,
        from: `--credential ${scheme}`,
      }));
      const target: Target = {
        name: 'target',
        url: echoing.url,
        token: 'a-token-the-document-does-not-use',
        tokenFrom: '--token',
        credentials,
        role: 'target',
        informs: false,
        restrictsTokens: true,
      };
      const harFile = join(dir, `${fixture}.har`);
      const har = new HarWriter(harFile);
      let results;
      try {
        results = await run({
          model,
          targets: [target],
          seed: 5,
          cases: 1,
          timeoutMs: 30_000,
          only: ['PS-ACCEPT-001', 'PS-AUTH-001', 'PS-OP-002', 'PS-OP-004', 'PS-OP-006', 'PS-OP-007', 'PS-DOC-002'],
          onWire: (t, ex, timing) => har.add(t, ex, timing),
        });
      } finally {
        har.close();
        await echoing.close();
      }
      const result = runResult({ seed: 5, strict: false, lint: [], targets: results, divergences: [] });
      const json = JSON.stringify(toJsonReport(result), null, 2);
      const reports: Record<string, string> = {
        console: `${renderConsole(result, { color: false, lint: 'count' })}${whatFailedLines(result, { color: false }).join('\n')}${closingLine(result, exitCode(result.targets, false))}`,
        json,
        junit: toJunit(result),
        html: toHtml(result),
        har: readFileSync(harFile, 'utf8'),
      };
      assert.match(json, /you sent/, 'the reports show what the target echoed');
      assert.match(json, /curl /, 'the reports carry curl lines');
      for (const c of credentials)
        for (const secret of credentialSecrets(c.value))
          for (const [report, text] of Object.entries(reports))
            assert.deepEqual(fragmentsIn(text, secret), [], `${c.scheme}: part of ${secret} in the ${report} report`);
    });
  }
});
