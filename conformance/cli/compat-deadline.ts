// `compat` under a deadline that a blocked event loop cannot escape. The
// comparison (reading the documents, the reference server it serves each
// with in process, the checks it runs against it, the reports) runs in a
// worker thread; this thread only waits, with a timer of its own, and ends
// the worker at --deadline however busy it is (a document's catastrophic
// pattern once blocked compat's loop for good, and with it compat's own
// timers: `timeout 100` ended it, with no output and no job summary).
// Ending a worker takes tens of milliseconds.
//
// The worker runs this very module: loaded in a worker with the task's data,
// it runs compatMain and posts the exit code. The Action's bundle is one
// file, so its entry names itself as the worker's module
// (setCompatWorkerEntry, scripts/action-entry.ts).
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { parseCompatArgs } from './compat-args.js';
import { UsageError } from './values.js';

const TASK = 'plantstore-compat';

/**
 * compatMain, imported when called: the main thread needs the comparison's modules only for --help and bad
 * arguments; loading them there as well as in the worker cost every compat run about 0.3 s of CPU.
 */
const compatMain = async (...args: Parameters<typeof import('./compat.js').compatMain>) =>
  (await import('./compat.js')).compatMain(...args);

interface CompatTask {
  task: typeof TASK;
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

let workerEntry: URL = new URL(import.meta.url);

/** The module a compat worker loads: this one, or (the Action's bundle) the bundle itself. */
export function setCompatWorkerEntry(entry: URL): void {
  workerEntry = entry;
}

const complain = (message: string) => process.stderr.write(`plantstore-conformance compat: ${message}\n`);

export interface DeadlineOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The module the worker loads (a test's stands in for a comparison that never ends). */
  entry?: URL;
}

/** compatMain in a worker, ended at --deadline (exit 2, saying so); its exit code otherwise. Bad arguments and --help are answered here. */
export async function compatWithDeadline(
  argv: string[],
  { cwd = process.cwd(), env = process.env, entry = workerEntry }: DeadlineOptions = {},
): Promise<number> {
  let deadlineMs: number;
  try {
    const options = parseCompatArgs(argv, env);
    if (options.action === 'help') return compatMain(argv, cwd, env);
    deadlineMs = options.deadlineMs;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    // compatMain says it, with its hint.
    return compatMain(argv, cwd, env);
  }
  const task: CompatTask = { task: TASK, argv, cwd, env: { ...env } };
  const worker = new Worker(entry, { workerData: task });
  let code: number | undefined;
  worker.on('message', (message: { code?: unknown }) => {
    if (typeof message?.code === 'number') code = message.code;
  });
  let timer: NodeJS.Timeout | undefined;
  const outcome = await new Promise<'exited' | 'deadline' | Error>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), deadlineMs);
    worker.once('exit', () => resolve('exited'));
    worker.once('error', (err) => resolve(err));
  });
  clearTimeout(timer);
  if (outcome === 'deadline') {
    await worker.terminate();
    complain(
      `the comparison did not finish within its deadline of ${deadlineMs / 1000} s (--deadline): it was stopped, and wrote no report`,
    );
    return 2;
  }
  if (outcome instanceof Error) {
    await worker.terminate();
    complain(`harness error: ${outcome.stack ?? String(outcome)}`);
    return 2;
  }
  return code ?? 2;
}

function isCompatTask(data: unknown): data is CompatTask {
  return typeof data === 'object' && data !== null && (data as { task?: unknown }).task === TASK;
}

// In a compat worker: run the comparison and say its exit code; the worker then ends once its output is written.
if (!isMainThread && isCompatTask(workerData)) {
  const { argv, cwd, env } = workerData;
  const code = await compatMain(argv, cwd, env);
  parentPort!.postMessage({ code });
}
