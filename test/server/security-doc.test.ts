// docs/security.md lists each bound and each default with its number: every
// constant of server/limits.ts (and the bounds set elsewhere) is named in a
// row of its table "Bounds and defaults", and that row holds its value.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as limits from '../../server/limits.js';
import { MIN_SECRET_LENGTH } from '../../server/redact.js';
import { MAX_DOCUMENT_BYTES } from '../../spec/openapi.js';
import { MAX_MADE_BYTES, MAX_MADE_VALUES } from '../../spec/value-budget.js';
import { MAX_BODY } from '../../conformance/run/http.js';
import { HAR_BODY_BYTES } from '../../conformance/report/har.js';
import { BODY_SHOWN } from '../../conformance/checks/grades.js';
import { FRAGMENT } from '../../conformance/redact/shorten.js';
import { DEFAULT_COMPAT_DEADLINE_SECONDS } from '../../conformance/cli/compat-args.js';
import { ACTION_CONFIG_KEYS } from '../../scripts/action-workspace.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)); // from dist/test/server/

function boundsRows(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/security.md'), 'utf8');
  const start = doc.indexOf('## Bounds and defaults');
  assert.ok(start !== -1, 'docs/security.md has the section Bounds and defaults');
  const end = doc.indexOf('\n## ', start + 1);
  return doc
    .slice(start, end === -1 ? undefined : doc.indexOf('Found by the fuzzing', start))
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| what |'));
}

test(
  'every bound and default of the server has a row of docs/security.md that names it and says its number',
  { timeout: 30_000 },
  () => {
    const rows = boundsRows();
    const constants: Record<string, unknown> = {
      ...limits,
      MAX_DOCUMENT_BYTES,
      MIN_SECRET_LENGTH,
      MAX_MADE_VALUES,
      MAX_MADE_BYTES,
    };
    assert.ok(Object.keys(constants).length >= 40, `${Object.keys(constants).length} constants`);
    for (const [name, value] of Object.entries(constants)) {
      // A group of defaults (WEBHOOK_DEFAULTS) is made of constants that have rows of their own.
      if (typeof value === 'object') continue;
      const row = rows.find((line) => new RegExp(`\`${name}\``).test(line));
      assert.ok(row !== undefined, `no row of the table names ${name}`);
      const numbers = row.replace(/(\d),(\d{3})/g, '$1$2');
      assert.ok(
        new RegExp(`(^|[^\\d.])${(value as number | string).toString().replace(/\./g, '\\.')}([^\\d]|$)`).test(numbers),
        `the row of ${name} does not say ${(value as number | string).toString()}: ${row}`,
      );
    }
  },
);

test('the defaults of the stub that are not constants are in the table too', { timeout: 30_000 }, () => {
  const rows = boundsRows().join('\n');
  for (const variable of [
    'PLANTSTORE_WEBHOOK_QUEUE_BYTES',
    'PORT',
    'PLANTSTORE_TOKENS',
    'PLANTSTORE_ADMIN',
    'PLANTSTORE_ADMIN_TOKEN',
    'PLANTSTORE_ALLOWED_HOSTS',
    'PLANTSTORE_PREFER',
    'PLANTSTORE_DELAY_MS',
    'PLANTSTORE_SPEC',
  ]) {
    assert.match(rows, new RegExp(`\`${variable}\``), variable);
  }
});

test(
  "the harness's bounds, compat's deadline and the Action's configuration have rows with their numbers",
  { timeout: 30_000 },
  () => {
    const rows = boundsRows();
    const constants: Record<string, unknown> = {
      MAX_BODY,
      HAR_BODY_BYTES,
      BODY_SHOWN,
      FRAGMENT,
      DEFAULT_COMPAT_DEADLINE_SECONDS,
      ACTION_CONFIG_KEYS: ACTION_CONFIG_KEYS.length,
    };
    for (const [name, value] of Object.entries(constants)) {
      const row = rows.find((line) => line.includes(`\`${name}\``));
      assert.ok(row !== undefined, `no row of the table names ${name}`);
      assert.ok(
        new RegExp(`(^|[^\\d.])${String(value)}([^\\d]|$)`).test(row.replace(/(\d),(\d{3})/g, '$1$2')),
        `the row of ${name} does not say ${String(value)}: ${row}`,
      );
    }
    for (const variable of ['PLANTSTORE_COMPAT_DEADLINE'])
      assert.match(rows.join('\n'), new RegExp(`\`${variable}\``), variable);
  },
);
