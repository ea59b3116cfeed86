// lib/process.ts: start a child, wait until it is ready, stop it for sure.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import {
  cpuSeconds,
  freePort,
  parseCpuSeconds,
  parseVmRss,
  residentBytes,
  runProcess,
  startProcess,
} from '../../lib/process.js';

const node = process.execPath;

test('freePort gives a port that can be listened on', async () => {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  server.close();
});

test('ready by a stdout line: the first capture group is the url; stop() ends it', async () => {
  const child = await startProcess({
    file: node,
    args: [
      '-e',
      'console.log("noise"); console.log("Server listening at http://127.0.0.1:9"); setInterval(() => {}, 1000)',
    ],
    readyLine: /Server listening at (\S+)/,
  });
  assert.equal(child.url, 'http://127.0.0.1:9');
  assert.deepEqual(child.lines.slice(0, 2), ['noise', 'Server listening at http://127.0.0.1:9']);
  const exit = await child.stop();
  assert.equal(exit.signal, 'SIGTERM');
  assert.deepEqual(child.exit(), exit);
});

test('ready by a probe that resolves true', async () => {
  let calls = 0;
  const child = await startProcess({
    file: node,
    args: ['-e', 'setInterval(() => {}, 1000)'],
    readyProbe: async () => ++calls >= 3,
  });
  assert.equal(calls, 3);
  await child.stop();
});

test('a child that ends before it is ready: the error says how and carries its stderr', async () => {
  await assert.rejects(
    startProcess({
      file: node,
      args: ['-e', 'console.error("bad config"); process.exit(2)'],
      readyLine: /never/,
      name: 'server',
    }),
    /server ended \(exit 2\) before it was ready: bad config/,
  );
});

test('a child that is never ready is stopped and reported after the timeout', async () => {
  await assert.rejects(
    startProcess({ file: node, args: ['-e', 'setInterval(() => {}, 1000)'], readyLine: /never/, timeoutMs: 300 }),
    /was not ready within 300 ms/,
  );
});

test('stop() kills with SIGKILL a child that ignores SIGTERM', async () => {
  const child = await startProcess({
    file: node,
    args: ['-e', 'process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)'],
    readyLine: /ready/,
  });
  const exit = await child.stop(200);
  assert.equal(exit.signal, 'SIGKILL');
});

test('group: true stops the child’s own children too', async () => {
  const grandchild = `require("child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }).pid`;
  const child = await startProcess({
    file: node,
    args: ['-e', `console.log("pid " + ${grandchild}); setInterval(() => {}, 1000)`],
    readyLine: /pid (\d+)/,
    group: true,
  });
  const pid = Number(child.url);
  assert.ok(pid > 0);
  await child.stop();
  // The grandchild got the group's SIGTERM: wait (bounded) until it is gone.
  let alive = true;
  for (let i = 0; i < 100 && alive; i++) {
    try {
      process.kill(pid, 0);
      await new Promise((resolve) => setTimeout(resolve, 20));
    } catch {
      alive = false;
    }
  }
  assert.equal(alive, false);
});

test('runProcess returns the exit, stdout lines and stderr; it kills past its timeout', async () => {
  const done = await runProcess({
    file: node,
    args: ['-e', 'console.log("a"); console.error("b"); process.exit(3)'],
    timeoutMs: 10_000,
  });
  assert.equal(done.code, 3);
  assert.deepEqual(done.lines, ['a']);
  assert.equal(done.stderr.trim(), 'b');
  const killed = await runProcess({ file: node, args: ['-e', 'setInterval(() => {}, 1000)'], timeoutMs: 200 });
  assert.equal(killed.signal, 'SIGKILL');
});

test('/proc readings: this process has a resident size and CPU time; the parsers read the kernel’s formats', () => {
  assert.ok((residentBytes(process.pid) ?? 0) > 1024 * 1024);
  assert.ok((cpuSeconds(process.pid) ?? -1) >= 0);
  assert.equal(parseVmRss('Name:\tnode\nVmRSS:\t  2048 kB\n'), 2048 * 1024);
  assert.equal(parseCpuSeconds('123 (a (b) c) S 1 2 3 4 5 6 7 8 9 10 150 50 0 0'), 2);
  assert.equal(residentBytes(undefined), undefined);
});
