// `npm run lint` (scripts/lint.mjs) is what CI runs before the tests: the
// format check, the type check, the type-checked lint and the spec lint. Here it runs in a
// small copy of the project (its configs, its scripts, one source file, the
// document), so that a commit with one unformatted line is seen to fail it,
// and the same file formatted to pass, without linting the whole tree twice.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../../lib/process.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)); // from dist/test/suite/

const FORMATTED = `export function plantName(name: string): string {\n  return name.trim();\n}\n`;
const ONE_LINE_UNFORMATTED = `export function plantName(name: string): string {\n  return name.trim( );\n}\n`;

function copyOfTheProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-lint-'));
  for (const file of ['.prettierrc.json', '.prettierignore', 'eslint.config.mjs', '.spectral.yaml']) {
    cpSync(join(ROOT, file), join(dir, file));
  }
  for (const file of ['lint.mjs', 'lint-spec.mjs']) cpSync(join(ROOT, 'scripts', file), join(dir, 'scripts', file));
  cpSync(join(ROOT, 'spec', 'openapi.yaml'), join(dir, 'spec', 'openapi.yaml'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'lint-copy', private: true, type: 'module' }));
  // The project's target and skipLibCheck, and only the ES2022 library: the copy's one source file needs no DOM
  // types, which the type check and the type-checked lint would otherwise read (and check) twice, for seconds.
  const compilerOptions = {
    strict: true,
    module: 'NodeNext',
    target: 'ES2022',
    lib: ['ES2022'],
    skipLibCheck: true,
    types: [],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src/**/*.ts'] }));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('CI runs npm run lint before the tests, and npm run lint is scripts/lint.mjs', () => {
  const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
  const lint = ci.indexOf('\nnpm run lint\n');
  const tests = ci.indexOf('\nnpm test\n');
  assert.ok(lint > 0, '.ci/run runs npm run lint');
  assert.ok(tests > lint, '.ci/run runs npm run lint before npm test');
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  assert.equal(scripts.lint, 'node scripts/lint.mjs');
});

test(
  'one unformatted line and a type error fail npm run lint, naming the checks and the file; formatted and typed, it passes',
  { timeout: 180_000 },
  async () => {
    const dir = copyOfTheProject();
    dirs.push(dir);
    mkdirSync(join(dir, 'src'));
    const source = join(dir, 'src', 'plant.ts');
    const lint = () =>
      runProcess({
        file: process.execPath,
        args: [join(dir, 'scripts', 'lint.mjs')],
        cwd: dir,
        stdout: 'lines',
        stderr: 'keep',
        timeoutMs: 150_000,
      });

    // One unformatted line, and (the type check is lint's: npm run build compiles without one) a type error.
    writeFileSync(source, `${ONE_LINE_UNFORMATTED}export const plantCount: number = 'three';\n`);
    const failing = await lint();
    const failingOutput = failing.lines.join('\n') + failing.stderr;
    assert.equal(failing.code, 1, failingOutput);
    assert.match(failingOutput, /src\/plant\.ts/, 'the unformatted file is named');
    assert.match(failingOutput, /src\/plant\.ts.*TS2322/, 'the type error is named with its file');
    assert.match(failingOutput, /lint: format, types(, code)? failed/, 'each failed check is named');

    writeFileSync(source, FORMATTED);
    const passing = await lint();
    assert.equal(passing.code, 0, passing.lines.join('\n') + passing.stderr);
  },
);
