// Each custom rule of .spectral.yaml fires on a copy of the spec broken for it,
// and is quiet where the copy is fixed: the rules can fail, and do not always.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { parse, stringify } from 'yaml';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SPECTRAL = join(ROOT, 'node_modules', '.bin', 'spectral');
type Doc = any;
const post = (doc: Doc) => doc.paths['/plants'].post;

/** Each case: a name, an edit of the spec, and the rules expected to fire (and not). */
const CASES: Array<{ name: string; edit: (doc: Doc) => void; fires: string[]; quiet?: string[] }> = [
  {
    name: 'original',
    edit: () => {},
    fires: [
      'plantstore-secured-operation-declares-401',
      'plantstore-size-limit-declared',
      'plantstore-string-max-length',
    ],
  },
  {
    name: 'gaps-closed',
    edit: (doc) => {
      const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
      post(doc).responses['401'] = { description: 'Unauthorized', ...error };
      post(doc).responses['413'] = { description: 'Too large', ...error };
      for (const schema of [doc.components.schemas.Plant, doc.components.schemas.Error]) {
        for (const property of Object.values<Doc>(schema.properties))
          if (property.type === 'string') property.maxLength = 100;
      }
    },
    fires: [],
    quiet: [
      'plantstore-secured-operation-declares-401',
      'plantstore-size-limit-declared',
      'plantstore-string-max-length',
    ],
  },
  {
    name: 'id-without-format',
    edit: (doc) => delete doc.components.schemas.NewPlant.allOf[1].properties.id.format,
    fires: ['plantstore-integer-format'],
  },
  {
    name: 'id-odd-format',
    edit: (doc) => (doc.components.schemas.NewPlant.allOf[1].properties.id.format = 'int128'),
    fires: ['plantstore-integer-format'],
  },
  {
    name: 'error-inline-schema',
    edit: (doc) =>
      (post(doc).responses['400'].content['application/json'].schema = {
        type: 'object',
        properties: { message: { type: 'string' } },
      }),
    fires: ['plantstore-error-response-uses-error-schema'],
  },
  {
    name: 'error-wrong-ref',
    edit: (doc) =>
      (post(doc).responses['400'].content['application/json'].schema = { $ref: '#/components/schemas/Plant' }),
    fires: ['plantstore-error-response-uses-error-schema'],
  },
  {
    name: 'body-optional',
    edit: (doc) => (post(doc).requestBody.required = false),
    fires: ['plantstore-request-body-required'],
  },
  {
    name: 'not-json',
    edit: (doc) => {
      const content = post(doc).requestBody.content;
      content['text/plain'] = content['application/json'];
      delete content['application/json'];
    },
    fires: ['plantstore-json-content'],
  },
  {
    // RFC 7464 JSON text sequences are not JSON text (record separators between values).
    name: 'json-sequence',
    edit: (doc) => {
      const content = post(doc).requestBody.content;
      content['application/json-seq'] = content['application/json'];
      delete content['application/json'];
    },
    fires: ['plantstore-json-content'],
  },
  {
    // RFC 6839 §3.1: a +json media type is JSON (a JSON Merge Patch, RFC 7396; problem details, RFC 9457).
    name: 'json-suffix',
    edit: (doc) => {
      const content = post(doc).requestBody.content;
      content['application/merge-patch+json'] = content['application/json'];
      post(doc).responses['400'].content['application/problem+json'] =
        post(doc).responses['400'].content['application/json'];
    },
    fires: [],
    quiet: ['plantstore-json-content'],
  },
];

let dir: string;
const results = new Map<string, Array<{ code: string; severity: number }>>();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plantstore-lint-'));
  const original = readFileSync(join(ROOT, 'spec', 'openapi.yaml'), 'utf8');
  const files = CASES.map(({ name, edit }) => {
    const doc = parse(original);
    edit(doc);
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, stringify(doc));
    return file;
  });
  // One Spectral run over every copy, with the project's ruleset, as `npm run lint:spec` runs it.
  const { stdout } = await promisify(execFile)(
    SPECTRAL,
    ['lint', '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--fail-severity', 'hint', ...files],
    {
      cwd: ROOT,
    },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const jsonStart = stdout.indexOf('[');
  const found = JSON.parse(stdout.slice(jsonStart)) as Array<{ code: string; severity: number; source: string }>;
  for (const { name } of CASES) results.set(name, []);
  for (const result of found)
    results
      .get(
        result.source
          .split(/[\\/]/)
          .pop()!
          .replace(/\.yaml$/, ''),
      )
      ?.push(result);
});

after(() => rmSync(dir, { recursive: true, force: true }));

for (const { name, fires, quiet = [] } of CASES) {
  test(`spectral on the ${name} copy: ${fires.length ? fires.join(', ') + ' fire' : quiet.join(', ') + ' stay quiet'}`, () => {
    const codes = new Set(results.get(name)!.map((r) => r.code));
    for (const rule of fires)
      assert.ok(codes.has(rule), `${rule} should fire on ${name}; got ${[...codes].join(', ')}`);
    for (const rule of quiet) assert.ok(!codes.has(rule), `${rule} should be quiet on ${name}`);
  });
}

test('the project spec has no lint errors (severity 0), only the documented warnings', () => {
  const original = results.get('original')!;
  assert.deepEqual(
    original.filter((r) => r.severity === 0),
    [],
  );
  assert.deepEqual([...new Set(original.map((r) => r.code))].sort(), [
    'info-contact',
    'plantstore-secured-operation-declares-401',
    'plantstore-size-limit-declared',
    'plantstore-string-max-length',
  ]);
});

test('every custom rule of .spectral.yaml has a broken copy that makes it fire', () => {
  const ruleset = parse(readFileSync(join(ROOT, '.spectral.yaml'), 'utf8')) as { rules: Record<string, unknown> };
  const covered = new Set(CASES.flatMap((c) => c.fires));
  for (const rule of Object.keys(ruleset.rules)) assert.ok(covered.has(rule), `no case makes ${rule} fire`);
});
