// The document's patterns in the harness (issue 35, medium 1): where the
// harness matches a property name against a `patternProperties` key of the
// document (drawing a valid body in cases/draw.ts, grading what an answer
// carries back in checks/body-grades.ts), it runs the key on the validators'
// linear-time engine (spec/linear-pattern.ts). With V8's engine, the key
// `^([\s\S]+)+X$` against a 40-character name never returned: the whole run
// hung. Each call runs in a worker that the test ends at a generous
// deadline, since a blocked event loop cannot end itself; the verdict is
// whether it finished, never how fast.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const CATASTROPHIC = '^([\\s\\S]+)+X$';
const NAME = 'a'.repeat(40);
const DEADLINE_MS = 120_000;

const scratch = mkdtempSync(join(tmpdir(), 'plantstore-patterns-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A document whose NewPlant requires a property only the catastrophic key declares, and whose Plant declares properties by it too. */
function evilDocument(): string {
  const patterned = { [CATASTROPHIC]: { type: 'string' } };
  const doc = {
    openapi: '3.1.0',
    info: { title: 'patterns', version: '1' },
    security: [{ bearer: [] }],
    paths: {
      '/plants': {
        post: {
          operationId: 'addPlant',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPlant' } } },
          },
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Plant' } } },
            },
            '400': {
              description: 'bad',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        NewPlant: {
          type: 'object',
          required: ['id', 'name', NAME],
          properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' } },
          patternProperties: patterned,
        },
        Plant: {
          type: 'object',
          required: ['id', 'name'],
          properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' } },
          patternProperties: patterned,
        },
        Error: {
          type: 'object',
          required: ['error', 'message'],
          properties: { error: { type: 'integer' }, message: { type: 'string' } },
        },
      },
    },
  };
  const file = join(scratch, 'evil.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** Runs `body` (CommonJS, with `model` loaded from `document` and `modules` imported) in a worker; its result, or `timeout` once the deadline passed. */
async function inWorker(document: string, body: string): Promise<unknown> {
  const url = (path: string) => new URL(`../../${path}`, import.meta.url).href;
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      const { loadSpecModel } = await import(${JSON.stringify(url('conformance/model/spec-model.js'))});
      const draw = await import(${JSON.stringify(url('conformance/cases/draw.js'))});
      const grades = await import(${JSON.stringify(url('conformance/checks/body-grades.js'))});
      const model = loadSpecModel(workerData.document);
      parentPort.postMessage(await (async () => { ${body} })());
    })().catch((err) => parentPort.postMessage({ error: String(err && err.stack || err) }));`;
  const worker = new Worker(source, { eval: true, workerData: { document } });
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve('timeout'), DEADLINE_MS);
      worker.once('message', (value) => (clearTimeout(timer), resolve(value)));
      worker.once('error', (err) => (clearTimeout(timer), reject(err)));
    });
  } finally {
    await worker.terminate();
  }
}

describe(
  "the document's patterns in the harness run on the linear-time engine",
  { timeout: 2 * DEADLINE_MS + 60_000 },
  () => {
    const document = evilDocument();

    it('drawing a valid body: the name the document requires is matched against the catastrophic key, and the draw finishes with it', async () => {
      const drawn = await inWorker(
        document,
        `return draw.drawValid(model, model.create.validateRequest, [{ id: 1, name: 'x' }], 'a valid NewPlant');`,
      );
      assert.notEqual(drawn, 'timeout', 'the draw finished');
      assert.ok(drawn && typeof drawn === 'object' && !('error' in drawn), JSON.stringify(drawn));
      assert.equal(
        typeof (drawn as Record<string, unknown>)[NAME],
        'string',
        'the required property is drawn from the schema its key declares',
      );
    });

    it('grading an answer: a property sent by a name the catastrophic key matches is declared, and a missing one fails', async () => {
      const verdicts = await inWorker(
        document,
        `const exchange = (body) => ({ request: { method: 'POST', path: '/plants', headers: {} }, url: 'http://127.0.0.1:1/plants', response: { status: 200, headers: { 'content-type': 'application/json' }, bodyText: JSON.stringify(body) } });
       const ctx = { model };
       const sentX = { id: 1, name: 'x', ['${NAME}X']: 'v' };
       const sentA = { id: 1, name: 'x', '${NAME}': 'v' };
       return [grades.gradeAccepted(ctx, exchange({ id: 1, name: 'x' }), sentX).outcome, grades.gradeAccepted(ctx, exchange({ id: 1, name: 'x' }), sentA).outcome];`,
      );
      assert.notEqual(verdicts, 'timeout', 'the grading finished');
      // `${NAME}X` matches the key (declared: leaving it out fails); `${NAME}` does not (undeclared: it may be left out).
      assert.deepEqual(verdicts, ['fail', 'pass'], JSON.stringify(verdicts));
    });

    it("no harness source builds a RegExp from a document's pattern with V8's engine", () => {
      const root = fileURLToPath(new URL('../../../conformance/', import.meta.url));
      const sources = readdirSync(root, { recursive: true, withFileTypes: true }).filter(
        (e) => e.isFile() && e.name.endsWith('.ts'),
      );
      for (const entry of sources) {
        const text = readFileSync(join(entry.parentPath, entry.name), 'utf8');
        for (const line of text.split('\n')) {
          // fast-check's stringMatching only parses its RegExp (schema-values.ts says why).
          if (/new RegExp\((pattern|source|key|schema\.pattern)\b/.test(line) && !line.includes('fc.stringMatching'))
            assert.fail(`${entry.name}: ${line.trim()}`);
        }
      }
    });
  },
);
