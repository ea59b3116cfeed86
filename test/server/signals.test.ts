// SIGTERM reaches the server however it was started. `npm start` runs it
// through a shell that dies of the signal npm forwards, which left the
// server running, an orphan on its port; the server now closes when npm,
// its launcher, is gone (server/start.ts). The image runs node as PID 1
// (container-test/), and node alone gets the signal itself (start.test.ts).
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startProcess } from '../../lib/process.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)); // from dist/test/server/

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    // Each probe lets go of its connection at once: one left open would hold a closing server open.
    const answer = (accepted: boolean) => {
      socket.destroy();
      resolve(accepted);
    };
    socket.once('connect', () => answer(true)).once('error', () => answer(false));
    socket.setTimeout(10_000, () => answer(true));
  });
}

/** The process id pino writes in each line: the server's, whoever launched it. */
function serverPid(lines: string[]): number {
  for (const line of lines) {
    const pid = /"pid":(\d+)/.exec(line)?.[1];
    if (pid !== undefined) return Number(pid);
  }
  throw new Error(`no log line names the server's pid: ${lines.join('\n')}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('SIGTERM to `npm start`: the server closes and its port is free', { timeout: 180_000 }, async () => {
  const npm = await startProcess({
    file: 'npm',
    args: ['start', '--silent'],
    cwd: ROOT,
    env: { PORT: '0', HOST: '127.0.0.1', PLANTSTORE_TOKENS: 't', npm_config_update_notifier: 'false' },
    readyLine: /Server listening at http:\/\/127\.0\.0\.1:(\d+)/,
    timeoutMs: 60_000,
    name: 'npm start',
  });
  const port = Number(npm.url);
  const pid = serverPid(npm.lines);
  try {
    assert.notEqual(pid, npm.pid, 'npm runs the server in a process of its own');
    assert.ok(await listening(port));
    npm.child.kill('SIGTERM');
    await npm.exited;
    // Bounded by a minute, which a loaded machine does not reach: the server polls for its parent every 250 ms.
    for (let attempt = 0; attempt < 600 && (alive(pid) || (await listening(port))); attempt++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(
      alive(pid),
      false,
      `the server (pid ${pid}) still runs after npm ended: an orphan\n${npm.lines.join('\n')}`,
    );
    assert.equal(await listening(port), false, `port ${port} still accepts connections`);
    assert.ok(
      npm.lines.some((line) => /"parentGone":\d+.*closing: answering requests in flight/.test(line)),
      npm.lines.join('\n'),
    );
  } finally {
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
});
