// The document's lint on a thread of its own (lint.ts lintApart): Spectral
// holds its thread for a second or more at a time, which the checks running
// beside it must not wait for. Posts the findings, or the error described as
// the run reports it.
import { parentPort, workerData } from 'node:worker_threads';
import { lintSpec } from './lint.js';
import { describeDocumentError } from './spec-errors.js';

const { spec } = workerData as { spec: string };
lintSpec(spec).then(
  (findings) => parentPort!.postMessage({ findings }),
  (err: unknown) => parentPort!.postMessage({ error: describeDocumentError(err, spec) }),
);
