// Every input a request needs: a parameter written as its style says
// (OpenAPI 3.1 §4.8.12.4, the table of Style Examples), a Link header read
// as RFC 8288 writes it, fresh ids of any kind (a UUID of version 4, a
// string of a pattern, never twice in a run), and a valid and an invalid
// string of every format the validators assert.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { queryString, writeParameter } from '../../conformance/cases/parameter-style.js';
import { freshIdOf, freshStringId, uuidFrom } from '../../conformance/cases/fresh-ids.js';
import { IdAllocator } from '../../conformance/cases/ids.js';
import { noteText } from '../../conformance/model/json.js';
import { FORMAT_SAMPLES } from '../../conformance/cases/schema-values.js';
import type { ParameterModel } from '../../conformance/model/operation-model.js';
import { nextLink, parseLinkHeader, relationsOf } from '../../lib/link-header.js';
import { checkedStringFormats, schemaValidators } from '../../spec/validator.js';
import { loadOpenApi } from '../../spec/openapi.js';

const param = (p: Partial<ParameterModel> & Pick<ParameterModel, 'name' | 'in'>): ParameterModel => ({
  required: false,
  style: p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple',
  explode: p.in === 'query' || p.in === 'cookie',
  examples: [],
  ...p,
});

describe('a parameter written as its style says (OpenAPI 3.1 §4.8.12.4)', () => {
  const color = ['blue', 'black', 'brown'];
  const point = { R: 100, G: 200, B: 150 };
  it('path: simple, label and matrix, arrays and objects, exploded or not', () => {
    const seg = (style: string, explode: boolean, v: unknown) => {
      const w = writeParameter(param({ name: 'color', in: 'path', style, explode }), v as never);
      assert.equal(w.in, 'path');
      return (w as { segment: string }).segment;
    };
    assert.equal(seg('simple', false, color), 'blue,black,brown');
    assert.equal(seg('simple', true, point), 'R=100,G=200,B=150');
    assert.equal(seg('simple', false, point), 'R,100,G,200,B,150');
    assert.equal(seg('label', false, color), '.blue,black,brown');
    assert.equal(seg('label', true, color), '.blue.black.brown');
    assert.equal(seg('label', true, point), '.R=100.G=200.B=150');
    assert.equal(seg('matrix', false, color), ';color=blue,black,brown');
    assert.equal(seg('matrix', true, color), ';color=blue;color=black;color=brown');
    assert.equal(seg('matrix', true, point), ';R=100;G=200;B=150');
  });

  it('query: form (exploded or not), spaceDelimited, pipeDelimited and deepObject', () => {
    const q = (style: string, explode: boolean, v: unknown) => {
      const w = writeParameter(param({ name: 'color', in: 'query', style, explode }), v as never);
      assert.equal(w.in, 'query');
      return queryString((w as { pairs: Array<[string, string]> }).pairs);
    };
    assert.equal(q('form', true, color), 'color=blue&color=black&color=brown');
    assert.equal(q('form', false, color), 'color=blue%2Cblack%2Cbrown');
    assert.equal(q('form', true, point), 'R=100&G=200&B=150');
    assert.equal(q('spaceDelimited', false, color), 'color=blue%20black%20brown');
    assert.equal(q('pipeDelimited', false, color), 'color=blue%7Cblack%7Cbrown');
    assert.equal(q('deepObject', true, point), 'color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150');
  });

  it('a header (simple) and a cookie (form); a content parameter is its JSON text', () => {
    assert.deepEqual(writeParameter(param({ name: 'X-Color', in: 'header' }), color), {
      in: 'header',
      value: 'blue,black,brown',
    });
    assert.deepEqual(writeParameter(param({ name: 'color', in: 'cookie', explode: false }), color), {
      in: 'cookie',
      pairs: [['color', 'blue,black,brown']],
    });
    assert.deepEqual(writeParameter(param({ name: 'filter', in: 'query', contentType: 'application/json' }), point), {
      in: 'query',
      pairs: [['filter', '{"R":100,"G":200,"B":150}']],
    });
  });
});

describe('the Link header (RFC 8288 §3)', () => {
  it('reads several links, quoted and bare parameters, several relation types in one rel', () => {
    const field = '</p?page=1>; rel="first", </p?page=3>; rel="next last"; title="x, y", </p?page=2>;rel=prev';
    const links = parseLinkHeader(field)!;
    assert.deepEqual(
      links.map((l) => [l.target, relationsOf(l)]),
      [
        ['/p?page=1', ['first']],
        ['/p?page=3', ['next', 'last']],
        ['/p?page=2', ['prev']],
      ],
    );
    assert.equal(nextLink(field), '/p?page=3');
    assert.equal(nextLink('<https://example.com/p?page=2>; REL="NEXT"'), 'https://example.com/p?page=2');
  });

  it('names no next page where none is, and refuses what is not its syntax', () => {
    assert.equal(nextLink('</p?page=1>; rel="first"'), undefined);
    assert.equal(parseLinkHeader('/p?page=2; rel=next'), undefined);
    assert.equal(parseLinkHeader('</p>; rel="next" garbage'), undefined);
  });
});

describe('fresh ids of any kind', () => {
  it('a UUID of version 4 and variant 10 (RFC 9562 §5.4)', () => {
    const u = uuidFrom(Buffer.alloc(16, 0xff));
    assert.match(u, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('strings of a format, of a pattern, and integers within bounds: each fits, none twice in a run', () => {
    const ids = new IdAllocator(3);
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const uuid = freshStringId([{ type: 'string', format: 'uuid' }], ids, () => true);
      const code = freshStringId(
        [{ type: 'string', pattern: '^PL-[0-9]{6}$' }],
        ids,
        (v) => typeof v === 'string' && /^PL-[0-9]{6}$/.test(v),
      );
      const n = freshIdOf(
        [{ type: 'integer', minimum: 1, maximum: 1000 }],
        'integer',
        ids,
        (v) => BigInt(v as bigint) >= 1n && BigInt(v as bigint) <= 1000n,
      );
      for (const v of [uuid, code, noteText(n)]) {
        assert.ok(!seen.has(v), `${v} given twice`);
        seen.add(v);
      }
      assert.match(code, /^PL-[0-9]{6}$/);
    }
  });
});

describe('a sample of every format the validators assert', () => {
  it('has one inside that validates and one outside that does not', () => {
    const validators = schemaValidators(loadOpenApi(), { unknownKeywords: 'ignore' });
    for (const format of checkedStringFormats()) {
      const samples = FORMAT_SAMPLES[format];
      assert.ok(samples, `a sample of ${format}`);
      const validate = validators.compile({ type: 'string', format }, `#/x-${format}`);
      for (const v of samples.inside) assert.deepEqual(validate(v), [], `${format}: ${v} is inside`);
      for (const v of samples.outside) assert.notDeepEqual(validate(v), [], `${format}: ${v} is outside`);
    }
  });
});
