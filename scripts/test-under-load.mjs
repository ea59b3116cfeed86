#!/usr/bin/env node
// Runs `npm test` while other processes keep every core busy: the suite's
// verdicts must not depend on the scheduler, and this is how to see that
// they do not (the machine a CI runner or a laptop shares with other work).
//
//   npm run test:loaded                 # one run, a busy loop per core
//   npm run test:loaded -- --runs 3     # three runs in a row, stops at the first failure
//   npm run test:loaded -- --load 4     # four busy loops, whatever the cores
//
// The busy loops are plain `node -e 'for(;;){}'` processes, stopped by their
// PIDs when the runs end (or on SIGINT/SIGTERM). Prints each run's time and
// verdict; exits with the first failing run's code.
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' }, load: { type: 'string' } } });
const runs = Number(values.runs);
const load = values.load === undefined ? availableParallelism() : Number(values.load);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(load) || load < 0) {
  console.error('test-under-load: --runs takes a whole number from 1, --load a whole number from 0');
  process.exit(2);
}

const busy = Array.from({ length: load }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
const stop = () => {
  for (const child of busy) child.kill('SIGKILL');
};
process.on('exit', stop);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let code = 0;
for (let run = 1; run <= runs && code === 0; run++) {
  const started = Date.now();
  const result = spawnSync(npm, ['test'], { stdio: 'inherit' });
  code = result.status ?? 1;
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(
    `test-under-load: run ${run} of ${runs} with ${load} busy processes: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}
process.exit(code);
