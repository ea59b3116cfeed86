// JSON Merge Patch on texts (server/operations/merge-patch.ts): the examples
// of RFC 7396 Appendix A, each as written there, and what a text-level merge
// owes beyond them: untouched values keep their text exactly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergePatch } from '../../server/operations/merge-patch.js';

// RFC 7396 Appendix A: ORIGINAL, PATCH, RESULT.
const APPENDIX_A: Array<[string, string, string]> = [
  ['{"a":"b"}', '{"a":"c"}', '{"a":"c"}'],
  ['{"a":"b"}', '{"b":"c"}', '{"a":"b","b":"c"}'],
  ['{"a":"b"}', '{"a":null}', '{}'],
  ['{"a":"b","b":"c"}', '{"a":null}', '{"b":"c"}'],
  ['{"a":["b"]}', '{"a":"c"}', '{"a":"c"}'],
  ['{"a":"c"}', '{"a":["b"]}', '{"a":["b"]}'],
  ['{"a":{"b":"c"}}', '{"a":{"b":"d","c":null}}', '{"a":{"b":"d"}}'],
  ['{"a":[{"b":"c"}]}', '{"a":[1]}', '{"a":[1]}'],
  ['["a","b"]', '["c","d"]', '["c","d"]'],
  ['{"a":"b"}', '["c"]', '["c"]'],
  ['{"a":"foo"}', 'null', 'null'],
  ['{"a":"foo"}', '"bar"', '"bar"'],
  ['{"e":null}', '{"a":1}', '{"e":null,"a":1}'],
  ['[1,2]', '{"a":"b","c":null}', '{"a":"b"}'],
  ['{}', '{"a":{"bb":{"ccc":null}}}', '{"a":{"bb":{}}}'],
];

test('RFC 7396 Appendix A: every example merges to its result', () => {
  for (const [original, patch, result] of APPENDIX_A)
    assert.equal(mergePatch(original, patch), result, `${original} + ${patch}`);
});

test("values the patch does not touch keep their text: every digit, the form of a number, escapes as JSON.stringify writes them; new members follow in the patch's order", () => {
  const stored = '{"name":"Fern","size":12.50,"stock":9223372036854775807,"care":{"water":1E3,"light":"\\u00e9"}}';
  assert.equal(
    mergePatch(
      stored,
      ' { "care" : { "light" : null , "soil" : 0.1000000000000000000001 } , "tag" : "shade", "b": [ 1 , 2 ] } ',
    ),
    '{"name":"Fern","size":12.50,"stock":9223372036854775807,"care":{"water":1E3,"soil":0.1000000000000000000001},"tag":"shade","b":[1,2]}',
  );
  assert.equal(
    mergePatch('{"a":1}', '\ufeff{"\\u0062":"\\u0041"}'),
    '{"a":1,"b":"A"}',
    'a byte order mark and escapes in the patch',
  );
});
