// The operations of a document, and the one the specification calls
// "Create plant".
import {
  DocumentError,
  HTTP_METHODS,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
} from './document.js';
import { resolveReference } from './references.js';
import { childPointer, isSchemaObject } from './schema-keywords.js';

/** One operation of the document, where it is and what it is. */
export interface OperationLocation {
  path: string;
  /** Upper case, e.g. POST. */
  method: string;
  operation: OperationObject;
  /** Its pointer in the document, e.g. `#/paths/~1plants/post`. */
  pointer: string;
  /** Parameters of the path item and of the operation (the operation's win), resolved. */
  parameters: Array<{ parameter: ParameterObject; pointer: string }>;
}

export function operationsOf(doc: OpenApiDocument): OperationLocation[] {
  const out: OperationLocation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const itemPointer = childPointer('#/paths', path);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isSchemaObject(operation)) continue;
      const pointer = childPointer(itemPointer, method);
      const byKey = new Map<string, { parameter: ParameterObject; pointer: string }>();
      const collect = (list: unknown, at: string) => {
        if (!Array.isArray(list)) return;
        list.forEach((raw, i) => {
          const { value, pointer: p } = resolveReference(
            doc,
            raw as ParameterObject,
            childPointer(at, 'parameters', i),
          );
          byKey.set(`${value.in}:${value.name}`, { parameter: value, pointer: p });
        });
      };
      collect(item.parameters, itemPointer);
      collect(operation.parameters, pointer);
      out.push({ path, method: method.toUpperCase(), operation, pointer, parameters: [...byKey.values()] });
    }
  }
  return out;
}

/** The operation identifier the specification's "Create plant" endpoint has in the document. */
export const CREATE_OPERATION_ID = 'createPlant';

/**
 * The operation the specification calls "Create plant": the one with
 * operationId createPlant, or else the only operation that takes a request
 * body. Other operations may be declared beside it.
 */
export function createOperation(doc: OpenApiDocument): OperationLocation {
  const all = operationsOf(doc);
  const named = all.find((op) => op.operation.operationId === CREATE_OPERATION_ID);
  if (named) return named;
  const withBody = all.filter((op) => op.operation.requestBody !== undefined);
  if (withBody.length === 1) return withBody[0]!;
  throw new DocumentError(
    '#/paths',
    undefined,
    withBody.length === 0
      ? `no operation with operationId ${CREATE_OPERATION_ID} and none that takes a request body: the document declares no create operation`
      : `no operation with operationId ${CREATE_OPERATION_ID}, and ${withBody.length} take a request body: say which creates a plant`,
  );
}
