// The docs name the list's parameters by lib/list-parameters.ts, the one
// table the server serves by and the harness reads lists by: each row of
// docs/server.md's "The list's parameters" names exactly its role's names
// (and the cursor row the cursor member's), and docs/checks.md's `limit`
// inference names exactly the limit's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LIST_PARAMETER_NAMES, NEXT_MEMBER_NAMES, type ListParameterRole } from '../../lib/list-parameters.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)); // from dist/test/server/

const backticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const cells = (row: string): string[] => row.split(' | ').map((cell) => cell.replace(/^\| ?| ?\|$/g, ''));

function section(file: string, heading: string): string[] {
  const doc = readFileSync(join(ROOT, file), 'utf8');
  const start = doc.indexOf(heading);
  assert.ok(start !== -1, `${file} has the section ${heading}`);
  const end = doc.indexOf('\n#', start + heading.length);
  return doc.slice(start, end === -1 ? undefined : end).split('\n');
}

test("every row of docs/server.md's list parameters names exactly the table's names of its role", () => {
  const rows = section('docs/server.md', "### The list's parameters").filter((line) => line.startsWith('| `'));
  const roles = Object.keys(LIST_PARAMETER_NAMES) as ListParameterRole[];
  for (const role of roles) {
    const row = rows.find((line) => cells(line).at(-1) === `\`${role}\``);
    assert.ok(row !== undefined, `a row whose switch is ${role}`);
    assert.deepEqual(backticked(cells(row)[0]!), [...LIST_PARAMETER_NAMES[role]], `the names of the ${role} row`);
  }
  const cursorRow = rows.find((line) => cells(line).at(-1) === '`cursor`')!;
  const members = /cursor member \(([^)]*)\)/.exec(cursorRow);
  assert.ok(members !== null, 'the cursor row names the cursor member in parentheses');
  assert.deepEqual(backticked(members[1]!), [...NEXT_MEMBER_NAMES], "the cursor member's names");
});

test("docs/checks.md's limit inference names exactly the table's limit names", () => {
  const row = section('docs/checks.md', '## Every operation, and what the harness infers').find((line) =>
    line.startsWith('| `limit` |'),
  );
  assert.ok(row !== undefined, 'the inference table has a limit row');
  const named = /A list parameter named (.*?) \(in any letter case/.exec(row);
  assert.ok(named !== null, 'the limit row lists the names it reads');
  assert.deepEqual(backticked(named[1]!), [...LIST_PARAMETER_NAMES.limit]);
});
