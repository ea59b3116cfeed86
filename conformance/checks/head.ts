// PS-HEAD-*: the response headers the document declares (OpenAPI 3.1
// §4.8.21 Header Object), applied to every exchange of the run: an answer
// with a declared status carries each header its response declares
// required, and every declared header it carries is valid by its schema.
import { isSchemaObject } from '../../spec/schema-keywords.js';
import { describeViolation } from '../../spec/validator.js';
import { resolveSchema } from '../model/schema-shape.js';
import type { HeaderModel } from '../model/operation-model.js';
import { valueOfText } from '../cases/parameter-values.js';
import { declared, operationOf } from './declared.js';
import { describe } from './grades.js';
import type { AggregateCheck, CheckContext, Verdict } from './types.js';

/** An exchange the check does not apply to (no answer, or no declared response): it does not make the check a skip. */
const skip: Verdict = { outcome: 'skip' };

const HEADER_OBJECT = {
  document: 'OpenAPI 3.1',
  section: '§4.8.21 Header Object (required, schema)',
  url: 'https://spec.openapis.org/oas/v3.1.0#header-object',
};

/** The types a header's schema allows. */
function headerTypes(ctx: CheckContext, h: HeaderModel): string[] {
  if (!h.schema) return [];
  const { schema } = resolveSchema(ctx.model.doc, h.schema.schema, h.schema.pointer);
  if (!isSchemaObject(schema)) return [];
  return Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
}

export const headChecks: AggregateCheck[] = [
  {
    kind: 'aggregate',
    id: 'PS-HEAD-001',
    title:
      'Every answer with a declared status carries the headers its response declares required, each declared header valid by its schema',
    level: 'MUST',
    source: HEADER_OBJECT,
    requirement:
      'required: "Determines whether this header is mandatory." schema: "The schema defining the type used for the header." (A Response Object\'s headers "Maps a header name to its definition"; the header\'s value, read as its schema\'s type, is held to that schema.)',
    grading:
      "MUST: the document's declared responses bind (the project's shared decisions): an answer with a declared status that lacks a header its response declares required, or carries a declared header whose value its schema refuses (a count that is not an integer, an ETag that is not a string of the declared form), fails.",
    evidence:
      'Every answer of the run whose status the document declares for its operation: each required header present, each declared header present valid by its schema.',
    family: 'declared response headers',
    verifyEach: (ex, ctx) => {
      if (!ex.response) return skip;
      const response = declared(ctx.model, ex);
      if (!response || response.headers.length === 0) return skip;
      const op = operationOf(ctx.model, ex.request)!;
      const name = `${op.method} ${op.path}`;
      for (const h of response.headers) {
        const value = ex.response.headers[h.name.toLowerCase()];
        if (value === undefined) {
          if (!h.required) continue;
          return {
            outcome: 'fail',
            expected: `${h.name}, which the ${ex.response.status} of ${name} declares required`,
            actual: `no ${h.name}: ${describe(ex)}`,
            cause: `a ${ex.response.status} of ${name} lacks its required header ${h.name}`,
            facts: { status: ex.response.status, header: { name: h.name, value: null } },
          };
        }
        const problems = h.validate?.(valueOfText(headerTypes(ctx, h), value)) ?? [];
        if (problems.length > 0)
          return {
            outcome: 'fail',
            expected: `${h.name} valid by its schema (${h.schema?.pointer ?? ''})`,
            actual: `${h.name}: ${JSON.stringify(value)}: ${problems.map((v) => describeViolation(v)).join('; ')}: ${describe(ex)}`,
            cause: `a ${ex.response.status} of ${name} carries a ${h.name} its schema refuses`,
            facts: { status: ex.response.status, header: { name: h.name, value } },
          };
      }
      return { outcome: 'pass' };
    },
  },
];
