// What the harness knows about the API, derived from the OpenAPI document at
// run time (spec/openapi.ts loads it, spec/validator.ts builds the validators
// the server uses too): every declared operation with its parameters,
// request bodies, responses and security requirement (operation-model.ts);
// the operation the create checks exercise, "Create plant", when the
// document has one (create-model.ts); the plant resource its other
// operations act on (resource.ts); every keyword of the document's schemas
// with its pointer. Checks read this model; nothing here is a hand-written
// constant.
import { loadOpenApi, operationsOf, OPENAPI_PATH, type JsonSchema, type OpenApiDocument } from '../../spec/openapi.js';
import type { KeywordUse } from '../../spec/schema-keywords.js';
import { documentKeywordUses, schemaValidators, type UncheckedFormat } from '../../spec/validator.js';
import { findCreate, type CreateModel } from './create-model.js';
import { Numeral } from './json.js';
import { operationModel, type OperationModel, type ResponseModel, type Validator } from './operation-model.js';
import { findResource, type ResourceModel } from './resource.js';
import { RuledOut } from './ruled-out.js';

export type { CreateModel } from './create-model.js';
export type { OperationModel, ParameterModel, RequestBodyModel, ResponseModel, Validator } from './operation-model.js';
export { flattenObject, resolveSchema, type FieldModel, type JsonType, type ObjectModel } from './schema-shape.js';

export interface SpecModel {
  path: string;
  doc: OpenApiDocument;
  /** Every operation the document declares. */
  operations: OperationModel[];
  /** The operation the create checks exercise, "Create plant"; undefined when the document has none (`createMissing` says why). Read it with createOf. */
  create?: CreateModel;
  createMissing?: string;
  /** The document's error record: the create's (its 4xx, 4XX or default), else the first 4xx with a schema that an operation declares, else the first default with one. */
  error?: ResponseModel;
  /** The plant resource: the operations that list, read, replace, merge and delete the plants the create stores. */
  resource: ResourceModel;
  schemaNames: string[];
  /** Every keyword of the document's schemas, with its pointer. */
  keywords: KeywordUse[];
  /** Formats the validators do not check (annotations, JSON Schema 2020-12 §7.2.1). */
  uncheckedFormats: UncheckedFormat[];
  /** The create's request validator with the keywords at these pointers left out ("valid but for this keyword"); cached. */
  requestValidatorWithout(pointers: string[]): Validator;
}

/** The create operation; throws RuledOut, saying why the document has none, for a check that needs it (the check is then skip). */
export function createOf(model: SpecModel): CreateModel {
  if (!model.create)
    throw new RuledOut(`the document declares no create operation (${model.createMissing}): this check sends creates`);
  return model.create;
}

/** What drawing and repairing values needs of a document: the document and its keywords (a whole SpecModel has them; so has a document no catalog can be built from). */
export type DocumentSchemas = Pick<SpecModel, 'doc' | 'keywords'>;

/** The error response an undeclared refusal is held to: the document's error record. */
function errorRecord(
  create: CreateModel | undefined,
  operations: readonly OperationModel[],
): ResponseModel | undefined {
  if (create) return create.error;
  for (const op of operations) {
    const status = [...op.responses.keys()]
      .sort()
      .find((s) => s.startsWith('4') && op.responses.get(s)!.validate !== undefined);
    if (status !== undefined) return op.responses.get(status);
  }
  // Refusals declared only as `default` (OpenAPI 3.1 §4.8.16.2): its record.
  return operations.map((op) => op.responses.get('default')).find((r) => r?.validate !== undefined);
}

export function loadSpecModel(path: string = OPENAPI_PATH): SpecModel {
  const doc = loadOpenApi(path);
  // The harness reads what it can: a keyword it does not know is reported as not exercised, not refused.
  const validators = schemaValidators(doc, {
    numeral: (v) => (v instanceof Numeral ? v.text : undefined),
    unknownKeywords: 'ignore',
  });
  const operations = operationsOf(doc).map((op) => operationModel(doc, op, validators));
  const found = findCreate(doc, operations);
  const create = 'create' in found ? found.create : undefined;
  const withoutCache = new Map<string, Validator>();
  return {
    path,
    doc,
    operations,
    ...(create ? { create } : { createMissing: (found as { missing: string }).missing }),
    error: errorRecord(create, operations),
    resource: findResource(doc, create, operations),
    schemaNames: Object.keys(doc.components.schemas),
    keywords: documentKeywordUses(doc),
    uncheckedFormats: validators.uncheckedFormats(),
    requestValidatorWithout(pointers) {
      const { requestSchema } = createOf(this);
      const key = [...pointers].sort().join(' ');
      let v = withoutCache.get(key);
      if (!v) {
        v = validators.compile(requestSchema.schema, requestSchema.pointer, new Set(pointers));
        withoutCache.set(key, v);
      }
      return v;
    },
  };
}

export type { JsonSchema };
