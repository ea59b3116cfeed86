// An operation that is not on the plant resource (operations/resource.ts)
// is answered as Prism answers it: its request is checked like any other
// (credentials, parameters, content type, size, JSON syntax, the body's
// schema), then it gets its lowest declared 2xx status (else `default`, as
// 200) with that response's example: the media type's `example`, its first
// `examples`, else a value made from the schema (schema-example.ts) that the
// schema's validator accepts. Stateless: the stored plants are not read.
// An answer that cannot be made (a schema no value was found for, or whose
// value would pass the budget of a made value) is 501, and the start-up
// line says so: never a silent 404.
import { isJsonBased } from '../../lib/http-syntax.js';
import type { FastifyRequest } from 'fastify';
import {
  resolveReference,
  type MediaTypeObject,
  type OpenApiDocument,
  type OperationLocation,
  type ResponseObject,
} from '../../spec/openapi.js';
import { childPointer } from '../../spec/schema-keywords.js';
import type { SchemaValidators } from '../../spec/validator.js';
import { ApiError } from '../http/errors.js';
import type { OperationHandler } from '../http/pipeline.js';
import { jsonText } from '../store/store.js';
import { madeValue } from './schema-example.js';

/** What an operation beside the resource answers, made once at start. */
export interface ExampleAnswer {
  status: number;
  /** The Content-Type sent, when there is a body. */
  contentType?: string;
  body?: string;
  /** Where the body came from, for the start-up line. */
  source: 'example' | 'schema' | 'no content';
}

/** The answer, or why none can be made. */
export function exampleAnswer(
  doc: OpenApiDocument,
  operation: OperationLocation,
  validators: SchemaValidators,
): ExampleAnswer | { unavailable: string } {
  const { status, key } = successStatus(operation.operation.responses ?? {});
  if (key === undefined) return { status, source: 'no content' };
  const pointer = childPointer(operation.pointer, 'responses', key);
  const { value: response, pointer: responsePointer } = resolveReference(
    doc,
    operation.operation.responses[key] as ResponseObject,
    pointer,
  );
  const content = response.content ?? {};
  const mediaType = 'application/json' in content ? 'application/json' : Object.keys(content)[0];
  if (mediaType === undefined) return { status, source: 'no content' };
  const media = content[mediaType] as MediaTypeObject;
  const contentType = isJsonBased(mediaType) ? `${mediaType}; charset=utf-8` : mediaType;
  const given = documentExample(doc, media, childPointer(responsePointer, 'content', mediaType));
  if (given !== undefined) return { status, contentType, body: written(given, mediaType), source: 'example' };
  if (media.schema === undefined)
    return { status, contentType, body: isJsonBased(mediaType) ? '{}' : '', source: 'schema' };
  const schemaPointer = childPointer(responsePointer, 'content', mediaType, 'schema');
  const validate = validators.compile(media.schema, schemaPointer);
  let spent: string | undefined;
  for (const members of ['all', 'required'] as const) {
    const made = madeValue(doc, media.schema, { members });
    if (made !== undefined && 'spent' in made) spent = made.spent;
    else if (made !== undefined && validate(made.value).length === 0)
      return { status, contentType, body: written(made.value, mediaType), source: 'schema' };
  }
  // Past the budget of a made value (spec/value-budget.ts) as for a schema no value fits: 501, saying why.
  return {
    unavailable:
      spent === undefined
        ? `no example in the document, and no value made from the schema at ${schemaPointer} passes it`
        : `no example in the document, and the value made from the schema at ${schemaPointer} ${spent}`,
  };
}

/** The lowest 2xx status the operation declares (its key), else `default` as 200, else 200 with no content. */
function successStatus(responses: Record<string, unknown>): { status: number; key: string | undefined } {
  const success = Object.keys(responses)
    .filter((key) => /^2\d\d$/.test(key))
    .sort()[0];
  if (success !== undefined) return { status: Number(success), key: success };
  if ('default' in responses) return { status: 200, key: 'default' };
  return { status: 200, key: undefined };
}

/** The media type's `example`, or its first `examples` entry's value (a reference to components/examples resolved). */
function documentExample(doc: OpenApiDocument, media: MediaTypeObject, pointer: string): unknown {
  if (media.example !== undefined) return media.example;
  const first = Object.entries(media.examples ?? {})[0];
  if (first === undefined) return undefined;
  return resolveReference(doc, first[1], childPointer(pointer, 'examples', first[0])).value.value;
}

function written(value: unknown, mediaType: string): string {
  if (!isJsonBased(mediaType) && typeof value === 'string') return value;
  return jsonText(value);
}

/** The handler of an operation beside the resource: the body judged by `validateBody`, then the answer made at start. */
export function exampleHandler(
  answer: ExampleAnswer | { unavailable: string },
  validateBody: ((request: FastifyRequest) => void) | undefined,
): OperationHandler<void, void> {
  return {
    schema: (request) => validateBody?.(request),
    store: () => undefined,
    answer(_input, _result, reply) {
      if ('unavailable' in answer)
        throw new ApiError(
          'NO_EXAMPLE',
          `The document gives no example for this answer, and none could be made from its schema: ${answer.unavailable}.`,
        );
      reply.code(answer.status);
      if (answer.body === undefined) return reply.send();
      return reply.type(answer.contentType!).send(answer.body);
    },
  };
}
