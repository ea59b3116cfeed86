// What clients see for each of the stub's wire faults, measured rather than
// guessed: starts the stub on a loopback port, asks for every fault with
// `Prefer: fault=F` from undici, Node's fetch, curl, Python's requests and
// Java's HttpClient (each where it is installed), and prints a Markdown
// table of the error each one reports (docs/stub.md, "What clients see").
//
//   npm run build && node dist/scripts/fault-clients.js
//
// The hang and the slow dribble rows use each client's own timeout of 1 s.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { buildApp } from '../server/app.js';

const TOKEN = 'client-token';
const BODY = '{"id": 1, "name": "Fern"}';
const TIMEOUT_MS = 1000;

interface Row {
  label: string;
  prefer: string;
  /** The client's own timeout applies (hang, slow dribble). */
  timeout: boolean;
}

const ROWS: Row[] = [
  { label: '`reset`', prefer: 'fault=reset', timeout: false },
  { label: '`close`', prefer: 'fault=close', timeout: false },
  { label: '`close-mid-body`', prefer: 'fault=close-mid-body', timeout: false },
  { label: '`garbage`', prefer: 'fault=garbage', timeout: false },
  { label: '`truncated`', prefer: 'fault=truncated', timeout: false },
  { label: '`hang`, client timeout 1 s', prefer: 'fault=hang', timeout: true },
  { label: '`dribble` (16 B / 100 ms), client waits', prefer: 'fault=dribble', timeout: false },
  {
    label: '`dribble` (16 B / 2 s), client timeout 1 s',
    prefer: 'fault=dribble, bytes=16, interval=2000',
    timeout: true,
  },
  { label: '`code=503, retry-after=1`', prefer: 'code=503, retry-after=1', timeout: false },
];

type Client = (url: string, row: Row) => Promise<string>;

function parsed(status: number, text: string): string {
  try {
    JSON.parse(text);
    return `${status}, JSON body`;
  } catch (error) {
    return `${status}, then \`JSON.parse\`: ${(error as Error).name}`;
  }
}

const headers = (row: Row) => ({
  authorization: `Bearer ${TOKEN}`,
  'content-type': 'application/json',
  prefer: row.prefer,
});

const undiciClient: Client = async (url, row) => {
  try {
    const timeouts = row.timeout ? { headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS } : {};
    const res = await request(url, { method: 'POST', headers: headers(row), body: BODY, ...timeouts });
    return parsed(res.statusCode, await res.body.text());
  } catch (error) {
    const { code, message } = error as Error & { code?: string };
    return `\`${code}\` (${message})`;
  }
};

const fetchClient: Client = async (url, row) => {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: headers(row),
      body: BODY,
      signal: row.timeout ? AbortSignal.timeout(TIMEOUT_MS) : undefined,
    });
    return parsed(res.status, await res.text());
  } catch (error) {
    const { name, message, cause } = error as Error & { cause?: Error & { code?: string } };
    return cause?.code !== undefined ? `${name} "${message}", cause \`${cause.code}\`` : `${name} "${message}"`;
  }
};

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 60_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code =
        error === null
          ? 0
          : typeof (error as { code?: unknown }).code === 'number'
            ? (error as { code: number }).code
            : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

const curlClient: Client = async (url, row) => {
  const args = ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', url, '--data-binary', BODY];
  for (const [name, value] of Object.entries(headers(row))) args.push('-H', `${name}: ${value}`);
  if (row.timeout) args.push('--max-time', String(TIMEOUT_MS / 1000));
  const { code, stdout, stderr } = await run('curl', args);
  return code === 0
    ? `exit 0, ${stdout}`
    : `exit ${code} (${stderr
        .trim()
        .replace(/^curl: \(\d+\) /, '')
        .replace(/ after \d+ milliseconds/, '')})`;
};

const PYTHON = `
import sys, requests
url, prefer, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3]) or None
try:
    r = requests.post(url, data=${JSON.stringify(BODY)}, timeout=timeout, headers={"authorization": "Bearer ${TOKEN}", "content-type": "application/json", "prefer": prefer})
    try:
        r.json()
        print(f"{r.status_code}, JSON body")
    except Exception as e:
        print(f"{r.status_code}, then .json(): {type(e).__module__}.{type(e).__name__}")
except Exception as e:
    print(f"{type(e).__module__}.{type(e).__name__}")
`;

const JAVA = `
import java.net.URI; import java.net.http.*; import java.time.Duration;
public class FaultClient {
  public static void main(String[] a) throws Exception {
    var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    var builder = HttpRequest.newBuilder(URI.create(a[0])).POST(HttpRequest.BodyPublishers.ofString(${JSON.stringify(BODY)}))
      .header("authorization", "Bearer ${TOKEN}").header("content-type", "application/json").header("prefer", a[1]);
    if (!a[2].equals("0")) builder.timeout(Duration.ofMillis(Long.parseLong(a[2])));
    try {
      var res = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
      System.out.println(res.statusCode() + ", " + res.body().length() + " characters");
    } catch (Exception e) {
      System.out.println(e.getClass().getName() + ": " + e.getMessage());
    }
  }
}
`;

async function main(): Promise<void> {
  const app = buildApp({ tokens: [TOKEN], stub: {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/plants`;
  const dir = mkdtempSync(join(tmpdir(), 'fault-clients-'));
  try {
    writeFileSync(join(dir, 'client.py'), PYTHON);
    writeFileSync(join(dir, 'FaultClient.java'), JAVA);
    const curlVersion = await run('curl', ['--version']);
    const python = await run('python3', ['-c', 'import requests; print(requests.__version__)']);
    const java = await run('java', ['-version']);
    const clients: Array<[string, Client | string]> = [
      [
        `undici ${(await import('undici/package.json', { with: { type: 'json' } })).default.version} \`request()\``,
        undiciClient,
      ],
      [`Node ${process.versions.node} \`fetch\``, fetchClient],
      [`curl ${curlVersion.stdout.split(' ')[1] ?? ''}`, curlVersion.code === 0 ? curlClient : 'not installed here'],
      [
        `Python requests ${python.stdout.trim()}`,
        python.code === 0
          ? async (u, row) =>
              (
                await run('python3', [
                  join(dir, 'client.py'),
                  u,
                  row.prefer,
                  row.timeout ? String(TIMEOUT_MS / 1000) : '0',
                ])
              ).stdout.trim()
          : 'not installed here',
      ],
      [
        `Java ${/version "([^"]+)"/.exec(java.stderr)?.[1] ?? ''} HttpClient`,
        java.code === 0
          ? async (u, row) =>
              (
                await run('java', [
                  join(dir, 'FaultClient.java'),
                  u,
                  row.prefer,
                  row.timeout ? String(TIMEOUT_MS) : '0',
                ])
              ).stdout.trim()
          : 'not installed here',
      ],
    ];
    console.log(`| fault | ${clients.map(([name]) => name).join(' | ')} |`);
    console.log(`|---|${clients.map(() => '---').join('|')}|`);
    for (const row of ROWS) {
      const cells: string[] = [];
      for (const [, client] of clients) cells.push(typeof client === 'string' ? client : await client(url, row));
      console.log(`| ${row.label} | ${cells.join(' | ')} |`);
    }
    const stored = await app.plantStore.usage();
    console.log(`\nplants stored by the faults: ${stored.plants}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await app.close();
  }
}

await main();
