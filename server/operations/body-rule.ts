// An operation's request body, from the document: the media types it may
// have, whether it is JSON, whether it is required, and its schema's
// validator; and the body of a request judged by it (400 naming each
// violation), as the create operation judges a NewPlant.
import { isJsonBased } from '../../lib/http-syntax.js';
import type { FastifyRequest } from 'fastify';
import { resolveReference, type OpenApiDocument, type OperationLocation } from '../../spec/openapi.js';
import { childPointer } from '../../spec/schema-keywords.js';
import type { SchemaValidators, Validate } from '../../spec/validator.js';
import { readBody, type ParsedBody } from '../http/body.js';
import { ApiError } from '../http/errors.js';
import { describe } from '../http/validation.js';

export interface BodyRule {
  mediaTypes: string[];
  /** Every media type is JSON (application/json, application/merge-patch+json, …): the stage JSON syntax applies. */
  json: boolean;
  required: boolean;
  /** The validator of the first JSON media type's schema, when it declares one. */
  validate: Validate | undefined;
  /** What the body is, for messages: its schema's component name (`Plant`, `PlantPatch`), else "the declared schema". */
  named: string;
}

/** The operation's request body rule; undefined when it declares none. */
export function bodyRule(
  doc: OpenApiDocument,
  operation: OperationLocation,
  validators: SchemaValidators,
): BodyRule | undefined {
  if (operation.operation.requestBody === undefined) return undefined;
  const { value: body, pointer } = resolveReference(
    doc,
    operation.operation.requestBody,
    childPointer(operation.pointer, 'requestBody'),
  );
  const content = body.content ?? {};
  const mediaTypes = Object.keys(content);
  const jsonType = mediaTypes.find(isJsonBased);
  const schema = jsonType === undefined ? undefined : content[jsonType]?.schema;
  const ref = (schema as { $ref?: unknown } | undefined)?.$ref;
  return {
    mediaTypes,
    json: mediaTypes.length > 0 && mediaTypes.every(isJsonBased),
    required: body.required === true,
    validate:
      schema === undefined
        ? undefined
        : validators.compile(schema, childPointer(pointer, 'content', jsonType!, 'schema')),
    named:
      typeof ref === 'string' && ref.startsWith('#/components/schemas/')
        ? ref.slice('#/components/schemas/'.length)
        : 'the declared schema',
  };
}

/** The request's body judged by `rule`: the 400 for a missing required body, or one its schema refuses; undefined when there is none. */
export function judgedBody(request: FastifyRequest, rule: BodyRule, required = rule.required): ParsedBody | undefined {
  const body = readBody(request);
  if (body === undefined) {
    if (required)
      throw new ApiError(
        'BODY_REQUIRED',
        `Request body is required: send ${rule.named === 'the declared schema' ? 'a body of the declared schema' : `a ${rule.named} record`}.`,
      );
    return undefined;
  }
  const violations = rule.validate?.(body.value) ?? [];
  if (violations.length > 0) {
    throw new ApiError(
      'INVALID_BODY',
      `Request body is not ${rule.named === 'the declared schema' ? 'valid against the declared schema' : `a valid ${rule.named}`}: ${describe(violations).join('; ')}.`,
    );
  }
  return body;
}
