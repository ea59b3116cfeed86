// The media type and the body of every error answer, as the document
// declares them for its status (error-handler.ts writes them): per
// operation, the response its status finds (the status itself, else its
// range `4XX`, else `default`: OpenAPI 3.1 §4.8.16.2), and its content:
//
// - application/problem+json: problem details (RFC 9457; error-body.ts);
// - the Error record (`error` integer, `message` string): as ever;
// - another JSON schema: a body made to fit it (error-body.ts), judged by
//   the schema's validator; one it refuses gets a value made from the schema,
//   else the Error record as application/json (said at start);
// - no content: none; `text/*`: the message as text;
// - no declared response for the status: the Error record, application/json.
//
// A request no operation answers (an unknown path, a malformed request) gets
// the shape every operation of the document agrees on for its status, else
// the Error record.
import { parseMediaType } from '../../lib/http-syntax.js';
import type { OpenApiDocument, ResponseObject } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import { schemaValidators, type SchemaValidators } from '../../spec/validator.js';
import { dereferenced, fittedErrorBody, type ErrorRecord } from './error-body.js';
import { jsonText } from '../store/store.js';
import { exampleOf } from '../operations/schema-example.js';
import { VALIDATOR_OPTIONS } from './request-body.js';

/** An error answer's Content-Type and text; undefined: the declared response has no content, and none is sent. */
export type ErrorAnswer = { contentType: string; text: string } | undefined;

export interface ErrorShape {
  answer(record: ErrorRecord, path: string | undefined): ErrorAnswer;
}

/** Each status's shape for one operation (or for what no operation answers). */
export interface ErrorShapes {
  of(status: number): ErrorShape;
  /** Whether a response is declared for the status (itself, its range, or `default`). */
  declares(status: number): boolean;
}

const JSON_UTF8 = 'application/json; charset=utf-8';

/** The Error record of the specification, as the server always answered it. */
export const ERROR_RECORD: ErrorShape = {
  answer: ({ error, message }) => ({ contentType: JSON_UTF8, text: JSON.stringify({ error, message }) }),
};

export const ERROR_RECORDS: ErrorShapes = { of: () => ERROR_RECORD, declares: () => false };

const NO_CONTENT: ErrorShape = { answer: () => undefined };

/** Where a declared error response is, for messages. */
export interface ShapeSite {
  /** The operation, as the start-up lines name it (`GET /plants`). */
  operation: string;
  /** The operation's pointer in the document, under which its responses are. */
  pointer: string;
}

/** Makes the shapes of a document's operations, each distinct media type and schema once. */
export class ErrorShapeMaker {
  /** What start.ts logs at warn: error responses no body of ours can fit. */
  readonly warnings: string[] = [];
  private compiled: SchemaValidators | undefined;
  private readonly bySchema = new Map<unknown, Map<string, ErrorShape>>();

  constructor(
    private readonly doc: OpenApiDocument,
    /** The inference `errors`: members of other schemas filled by their names. */
    private readonly byNames: boolean,
  ) {}

  /** The shapes of an operation whose declared responses are `responses`, each declared error response's made now. */
  forOperation(responses: Readonly<Record<string, ResponseObject>>, site: ShapeSite): ErrorShapes {
    const byKey = new Map<string, ErrorShape>();
    for (const [key, response] of Object.entries(responses))
      if (ERROR_KEY.test(key)) byKey.set(key.toUpperCase(), this.shapeOf(response, key, site));
    // OpenAPI 3.1 §4.8.16.2: the status itself, else its range (`4XX`), else `default`.
    const declared = (status: number) =>
      status < 400 || status > 599
        ? undefined
        : (byKey.get(String(status)) ?? byKey.get(`${Math.floor(status / 100)}XX`) ?? byKey.get('DEFAULT'));
    return { of: (status) => declared(status) ?? ERROR_RECORD, declares: (status) => declared(status) !== undefined };
  }

  /**
   * For what no operation answers: the shape every operation that declares
   * a status agrees on (a request to no operation is none of theirs, and
   * those that declare the status say how the API writes it), else the
   * Error record.
   */
  agreed(all: readonly ErrorShapes[]): ErrorShapes {
    const byStatus = new Map<number, ErrorShape>();
    const of = (status: number) => {
      let shape = byStatus.get(status);
      if (shape === undefined) {
        const shapes = new Set(all.filter((one) => one.declares(status)).map((one) => one.of(status)));
        shape = shapes.size === 1 ? [...shapes][0]! : ERROR_RECORD;
        byStatus.set(status, shape);
      }
      return shape;
    };
    return { of, declares: (status) => all.some((one) => one.declares(status)) };
  }

  private shapeOf(response: ResponseObject, key: string, site: ShapeSite): ErrorShape {
    const content = response.content ?? {};
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length === 0) return NO_CONTENT;
    const essence = (mediaType: string) => parseMediaType(mediaType)?.essence ?? mediaType.toLowerCase();
    const chosen =
      mediaTypes.find((m) => essence(m) === 'application/problem+json') ??
      mediaTypes.find((m) => essence(m) === 'application/json') ??
      mediaTypes.find((m) => essence(m).endsWith('+json')) ??
      mediaTypes.find((m) => ['*/*', 'application/*'].includes(essence(m))) ??
      mediaTypes.find((m) => essence(m).startsWith('text/'));
    if (chosen === undefined) {
      this.warnings.push(
        `${site.operation}: its ${key} response declares ${mediaTypes.join(', ')}, none of which this server writes: those errors are answered as the Error record, application/json`,
      );
      return ERROR_RECORD;
    }
    const type = essence(chosen);
    const schema = content[chosen]?.schema;
    let forSchema = this.bySchema.get(schema);
    if (forSchema === undefined) this.bySchema.set(schema, (forSchema = new Map<string, ErrorShape>()));
    let shape = forSchema.get(type);
    if (shape === undefined) {
      const pointer = childPointer(site.pointer, 'responses', key, 'content', chosen, 'schema');
      shape = this.made(type, schema, pointer, `${site.operation}: its ${key} response`);
      forSchema.set(type, shape);
    }
    return shape;
  }

  private made(type: string, schema: unknown, pointer: string, where: string): ErrorShape {
    if (type.startsWith('text/')) {
      const contentType = `${type}; charset=utf-8`;
      return { answer: ({ message }) => ({ contentType, text: message }) };
    }
    // As Fastify writes every JSON type it sends (a JSON text is UTF-8: RFC 8259 §8.1).
    const contentType = ['*/*', 'application/*'].includes(type) ? JSON_UTF8 : `${type}; charset=utf-8`;
    const problem = type === 'application/problem+json';
    if (!problem && isErrorRecordSchema(this.doc, schema))
      return contentType === JSON_UTF8 ? ERROR_RECORD : { answer: (r) => ({ contentType, text: recordText(r) }) };
    // Without the inference, a schema of another shape gets the Error record as ever.
    if (!problem && !this.byNames && schema !== undefined) return ERROR_RECORD;
    const validate = schema === undefined ? undefined : this.validators().compile(schema, pointer);
    const fits = (value: unknown) => validate === undefined || validate(value).length === 0;
    const made = schema === undefined ? undefined : exampleFitting(this.doc, schema, fits);
    const options = { problem, byNames: this.byNames };
    const sample: ErrorRecord = { status: 400, error: 40001, message: 'Request body is not valid JSON.' };
    if (!fits(fittedErrorBody(this.doc, schema, sample, { ...options, path: '/' })))
      this.warnings.push(
        made === undefined
          ? `${where}: no error body this server makes passes the schema at ${pointer}: those errors are answered as the Error record, application/json`
          : `${where}: no error body this server makes passes the schema at ${pointer}: those errors are answered with a value made from the schema, without the error's message`,
      );
    return {
      answer: (record, path) => {
        const body = fittedErrorBody(this.doc, schema, record, { ...options, path });
        if (fits(body)) return { contentType, text: jsonText(body) };
        if (made !== undefined) return { contentType, text: made };
        return ERROR_RECORD.answer(record, path);
      },
    };
  }

  private validators(): SchemaValidators {
    return (this.compiled ??= schemaValidators(this.doc, VALIDATOR_OPTIONS));
  }
}

function recordText({ error, message }: ErrorRecord): string {
  return JSON.stringify({ error, message });
}

/** A value made from the schema that passes it, as text; undefined when none is. */
function exampleFitting(doc: OpenApiDocument, schema: unknown, fits: (value: unknown) => boolean): string | undefined {
  for (const members of ['all', 'required'] as const) {
    const value = exampleOf(doc, schema, { members });
    if (value !== undefined && fits(value)) return jsonText(value);
  }
  return undefined;
}

/** The keys of the responses an error may find: a 4xx or 5xx status, its range, `default`. */
const ERROR_KEY = /^(?:[45](?:\d\d|XX)|default)$/i;

/** Annotations that change nothing a body must be. */
const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * Whether the schema is the specification's Error record: an object of
 * `error` (an integer, int32 or int64) and `message` (a string), both
 * declared, no other member, and no keyword that bounds either: the record
 * the server writes passes it whatever its message, with no validator.
 */
export function isErrorRecordSchema(doc: OpenApiDocument, schema: unknown): boolean {
  const record = dereferenced(doc, schema);
  if (!isSchemaObject(record) || !isSchemaObject(record.properties)) return false;
  const names = Object.keys(record.properties);
  if (names.length !== 2 || !names.includes('error') || !names.includes('message')) return false;
  const allowed = new Set([...ANNOTATIONS, 'type', 'properties', 'required', 'additionalProperties']);
  if (Object.keys(record).some((keyword) => !allowed.has(keyword) && !keyword.startsWith('x-'))) return false;
  if (record.type !== undefined && record.type !== 'object') return false;
  const plain = (member: unknown, type: string, formats: ReadonlyArray<string | undefined>) => {
    const value = dereferenced(doc, member);
    if (!isSchemaObject(value) || value.type !== type || !formats.includes(value.format as string | undefined))
      return false;
    return Object.keys(value).every((k) => k === 'type' || k === 'format' || ANNOTATIONS.has(k) || k.startsWith('x-'));
  };
  return (
    plain(record.properties.error, 'integer', [undefined, 'int32', 'int64']) &&
    plain(record.properties.message, 'string', [undefined])
  );
}

export type { ErrorRecord } from './error-body.js';
