// Ctrl-C (SIGINT) and SIGTERM stop the Prism mock and the reference server
// that the CLI started: the CLI is spawned with --reference --prism and a
// target that never answers (so the run is still going), the signal is sent
// once both servers announced their address, and afterwards nothing answers
// at either address.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';

const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));

// Accepts connections and never answers: the run against it stays in flight.
const sockets = new Set<Socket>();
let silent: Server;
let silentUrl: string;
before(async () => {
  silent = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
});
after(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/plants`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

async function interrupt(signal: NodeJS.Signals): Promise<{ code: number | null; urls: string[]; stderr: string }> {
  const child = spawn(process.execPath, [CLI, '--reference', '--prism', '--target', silentUrl, '--timeout', '60000'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  child.stdout.resume();
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const urls = await new Promise<string[]>((resolve, reject) => {
    // Bounded: the servers announce themselves within seconds, or the test fails.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the servers did not announce their addresses:\n${stderr}`));
    }, 60_000);
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const reference = /^reference: .* at (http:\/\/\S+)$/m.exec(stderr)?.[1];
      const prism = /^prism: .* at (http:\/\/\S+)$/m.exec(stderr)?.[1];
      if (reference && prism) {
        clearTimeout(timer);
        resolve([reference, prism]);
      }
    });
  });
  for (const url of urls) assert.equal(await answers(url), true, `${url} answers while the run goes on`);
  child.kill(signal);
  const code = await Promise.race([
    exited,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000).unref()),
  ]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  return { code, urls, stderr };
}

describe('signals stop the servers the CLI started', () => {
  // Both signals at once: two CLIs side by side, so the file costs one Prism start of time.
  it('SIGINT: exit 130, SIGTERM: exit 143; afterwards neither the reference server nor Prism answers', async () => {
    const runs = await Promise.all([interrupt('SIGINT'), interrupt('SIGTERM')]);
    for (const [signal, expected, { code, urls, stderr }] of [
      ['SIGINT', 130, runs[0]],
      ['SIGTERM', 143, runs[1]],
    ] as const) {
      assert.equal(code, expected, `${signal}: ${stderr}`);
      assert.match(stderr, new RegExp(`${signal}, stopping the servers it started`));
      for (const url of urls) assert.equal(await answers(url), false, `${url} still answers after ${signal}`);
    }
  });
});
