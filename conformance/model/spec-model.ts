// What the harness knows about the API, derived from the OpenAPI document at
// run time (spec/openapi.ts loads it, spec/validator.ts builds the validators
// the server uses too): every declared operation with its parameters,
// request bodies, responses and security requirement (operation-model.ts);
// every resource of the document: its collection, create, item operations,
// identity, parents and references (resource.ts); the create the create
// checks exercise (operationId createPlant, else the first create that
// needs no other item first) and its resource; every keyword of the
// document's schemas with its pointer. Checks read this model; nothing here is a hand-written
// constant.
import { loadOpenApi, operationsOf, OPENAPI_PATH, type JsonSchema, type OpenApiDocument } from '../../spec/openapi.js';
import type { KeywordUse } from '../../spec/schema-keywords.js';
import { documentKeywordUses, schemaValidators, type UncheckedFormat } from '../../spec/validator.js';
import type { CreateModel } from './create-model.js';
import { Numeral } from './json.js';
import { operationModel, type OperationModel, type ResponseModel, type Validator } from './operation-model.js';
import { findResources, NO_RESOURCE, prerequisitesOf, type ResourceModel } from './resource.js';
import { CREATE_OPERATION_ID } from '../../spec/openapi.js';
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
  /** The resource of `create`: the operations that list, read, replace, merge and delete the items it stores. */
  resource: ResourceModel;
  /** Every resource of the document (resource.ts), in the order its operations come. */
  resources: ResourceModel[];
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

/**
 * The resource whose create the create checks exercise: operationId
 * createPlant, else the first (in the document's order) whose create needs
 * no other item first (no parent, no reference), else the first with a create.
 */
function primaryResource(resources: readonly ResourceModel[]): ResourceModel | undefined {
  const creating = resources.filter((r) => r.create);
  return (
    creating.find((r) => r.create!.operationId === CREATE_OPERATION_ID) ??
    creating.find((r) => prerequisitesOf(r).length === 0 && r.parents.length === 0) ??
    creating[0]
  );
}

/** Why the document has no create the checks can exercise. */
function whyNoCreate(resources: readonly ResourceModel[]): string {
  const missing = resources.flatMap((r) => (r.createMissing !== undefined ? [r.createMissing] : []));
  return missing.length > 0
    ? missing.join('; ')
    : `no operation has operationId ${CREATE_OPERATION_ID}, and no POST creates items (a body with a required integer member, an item path or a list beside it, or a declared 201)`;
}

export function loadSpecModel(path: string = OPENAPI_PATH): SpecModel {
  const doc = loadOpenApi(path);
  // The harness reads what it can: a keyword it does not know is reported as not exercised, not refused.
  const validators = schemaValidators(doc, {
    numeral: (v) => (v instanceof Numeral ? v.text : undefined),
    unknownKeywords: 'ignore',
  });
  const operations = operationsOf(doc).map((op) => operationModel(doc, op, validators));
  const resources = findResources(doc, operations);
  const primary = primaryResource(resources);
  const create = primary?.create;
  const withoutCache = new Map<string, Validator>();
  return {
    path,
    doc,
    operations,
    ...(create ? { create } : { createMissing: whyNoCreate(resources) }),
    error: errorRecord(create, operations),
    resource: primary ?? NO_RESOURCE,
    resources,
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
