// What one resource's items are, for the operations on them: the members an
// item keeps of a body (the properties its schema declares, as the plant
// keeps those Plant declares: stored-plant.ts), the validators of its create
// body and of a whole item, its id rule and, where the server picks ids, how
// it makes them. The plant resource's comes from the operation contract
// (validation.ts), whose create body validator the build generates for the
// shipped document.
import type { OpenApiDocument } from '../../spec/openapi.js';
import type { SchemaValidators, Validate } from '../../spec/validator.js';
import type { JsonValue } from '../json/json.js';
import { describe, plantShape, type OperationContract, type PlantShape } from '../http/validation.js';
import { idMaker, type IdMaker } from './resource-ids.js';
import type { Resource } from './resources.js';

export interface ItemKind {
  resource: Resource;
  /** The members an item keeps of a body: those its schema declares. */
  shape: PlantShape;
  /** The create's body: its violations as sentences; [] when valid. */
  validateCreate: (body: JsonValue) => string[];
  /** The create body's name in messages (`NewPlant`, `Order`, or "the declared schema"). */
  createNamed: string;
  /** The item schema's validator: a replaced or merged item must pass it. */
  validateItem: () => Validate;
  /** Where the server picks ids: how it makes one, or why it cannot. */
  ids: IdMaker | { unmakeable: string } | undefined;
}

/** The kind of `resource`'s items; the plant resource's takes its create body and its shape from `contract`. */
export function itemKind(
  doc: OpenApiDocument,
  resource: Resource,
  contract: OperationContract,
  validators: () => SchemaValidators,
): ItemKind {
  const primary = resource.key === '';
  let compiledItem: Validate | undefined;
  let compiledCreate: Validate | undefined;
  const shape = primary ? contract.plant : plantShape(doc, resource.item);
  const body = resource.createBody;
  return {
    resource,
    shape,
    validateCreate: primary
      ? (value) => contract.validateRequestBody(value)
      : (value) => {
          if (body === undefined) return [];
          compiledCreate ??= validators().compile(body.schema, body.pointer);
          const violations = compiledCreate(value);
          return violations.length === 0 ? [] : describe(violations);
        },
    createNamed: primary ? 'NewPlant' : componentName(body?.schema),
    validateItem: () => (compiledItem ??= validators().compile(shape.schema, shape.pointer)),
    ids: resource.id.chosenBy === 'client' ? undefined : idMaker(doc, resource.id, validators),
  };
}

/** A schema's component name where it is a reference to one (`Order`), else "the declared schema". */
export function componentName(schema: unknown): string {
  const ref = (schema as { $ref?: unknown } | undefined)?.$ref;
  return typeof ref === 'string' && ref.startsWith('#/components/schemas/')
    ? decodeURIComponent(ref.slice('#/components/schemas/'.length))
    : 'the declared schema';
}
