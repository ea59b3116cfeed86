// One operation of the document as the harness reads it: its parameters
// (each with the validator of its schema), its request bodies (one per
// declared media type), its responses (each with the validator of its
// schema, and its links) and its security requirement. spec-model.ts
// gathers them into the model of the whole document.
import { resolveReference, type OpenApiDocument, type OperationLocation } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import type { SchemaValidators, Violation } from '../../spec/validator.js';
import { credentialKind, schemeModel, type SecuritySchemeModel } from './security.js';

/** A validator of the document; a violation names the keyword and its pointer. */
export type Validator = (value: unknown) => Violation[];

export interface ResponseModel {
  status: string;
  description: string;
  contentTypes: string[];
  /** Name of the component schema, when the response references one. */
  schemaName?: string;
  /** The schema and its pointer, when the response declares one. */
  schema?: { schema: unknown; pointer: string };
  validate?: Validator;
  /** Every declared media type with its schema and validator, in the document's order (`schema` and `validate` are the first's). */
  media: Array<{ contentType: string; schema?: { schema: unknown; pointer: string }; validate?: Validator }>;
  /** Its OpenAPI links (OpenAPI 3.1 §4.8.20), as the document writes them, and their pointer. */
  links?: { links: Record<string, unknown>; pointer: string };
  /** The headers it declares (OpenAPI 3.1 §4.8.21 Header Object), `Content-Type` left out as the Response Object says. */
  headers: HeaderModel[];
}

/** A response header the document declares. */
export interface HeaderModel {
  name: string;
  required: boolean;
  /** Its pointer in the document. */
  pointer: string;
  schema?: { schema: unknown; pointer: string };
  /** Its schema's validator, on the value the field's text stands for (7 for `X-Total-Count: 7`). */
  validate?: Validator;
}

export interface ParameterModel {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description?: string;
  /** OpenAPI 3.1 §4.8.12.4: form for query and cookie, simple for path and header, unless the document says otherwise. */
  style: string;
  explode: boolean;
  schema?: { schema: unknown; pointer: string };
  /** The media type of a parameter declared with `content` instead of `schema` (OpenAPI 3.1 §4.8.12.4): its value is sent as that type's text (JSON). */
  contentType?: string;
  /** Its schema's validator, on the value the text of the parameter stands for (7 for `?limit=7`). */
  validate?: Validator;
  example?: unknown;
  /** Every example the document gives it (example, examples, its schema's examples). */
  examples: unknown[];
}

/** One declared media type of a request body. */
export interface RequestBodyModel {
  contentType: string;
  schema?: { schema: unknown; pointer: string };
  validate?: Validator;
  examples: unknown[];
}

export interface OperationModel {
  path: string;
  method: string;
  operationId: string;
  /** Its pointer in the document, e.g. `#/paths/~1plants/post`. */
  pointer: string;
  description?: string;
  parameters: ParameterModel[];
  requestContentTypes: string[];
  requestBodyRequired: boolean;
  /** The request body's schema (the first media type's) and its pointer. */
  requestSchema?: { schema: unknown; pointer: string };
  /** The request body's examples as the document gives them. */
  requestExamples: unknown[];
  validateRequest?: Validator;
  /** Every declared media type of the request body, in the document's order. */
  requestBodies: RequestBodyModel[];
  responses: Map<string, ResponseModel>;
  /** The security requirement's alternatives: each lists the schemes it needs (an empty one: no credentials needed). */
  security: SecuritySchemeModel[][];
  securitySchemes: SecuritySchemeModel[];
  /** Every alternative of the security requirement needs a bearer token (HTTP bearer, oauth2, openIdConnect). */
  bearerRequired: boolean;
  /** No credentials are needed: `security: []`, or an empty alternative (OpenAPI 3.1 §4.8.30). */
  open: boolean;
}

/**
 * The response the document declares for a status: the status itself, its
 * range (`4XX`), or `default` (OpenAPI 3.1 §4.8.16.2: "for all HTTP codes
 * that are not covered individually").
 */
export function declaredResponse(op: Pick<OperationModel, 'responses'>, status: number): ResponseModel | undefined {
  const s = String(status);
  return (
    op.responses.get(s) ?? op.responses.get(`${s[0]}XX`) ?? op.responses.get(`${s[0]}xx`) ?? op.responses.get('default')
  );
}

/** The schema and validator a response declares for the media type an answer carries (its essence); undefined when it declares none for it. */
export function mediaOf(response: ResponseModel, essence: string): ResponseModel['media'][number] | undefined {
  return response.media.find((m) => m.contentType === essence);
}

/** `METHOD /path`, how a report names an operation. */
export function operationName(op: { method: string; path: string }): string {
  return `${op.method} ${op.path}`;
}

const COMPONENT = /^#\/components\/schemas\/([^/]+)$/;

export function refName(schema: unknown): string | undefined {
  const ref = isSchemaObject(schema) ? schema.$ref : undefined;
  return typeof ref === 'string' ? COMPONENT.exec(ref)?.[1] : undefined;
}

function mediaExamples(
  media: { example?: unknown; examples?: Record<string, { value?: unknown }> } | undefined,
  schema: unknown,
): unknown[] {
  const out: unknown[] = [];
  if (media?.example !== undefined) out.push(media.example);
  for (const e of Object.values(media?.examples ?? {})) if (e && e.value !== undefined) out.push(e.value);
  if (isSchemaObject(schema) && Array.isArray(schema.examples)) out.push(...(schema.examples as unknown[]));
  return out;
}

function responsesOf(
  doc: OpenApiDocument,
  op: OperationLocation,
  validators: SchemaValidators,
): Map<string, ResponseModel> {
  const responses = new Map<string, ResponseModel>();
  for (const [status, raw] of Object.entries(op.operation.responses ?? {})) {
    const { value: r, pointer: rp } = resolveReference(doc, raw, childPointer(op.pointer, 'responses', status));
    const content = r.content ?? {};
    // Media types are compared by their essence (RFC 9110 §8.3.1: type and subtype are case-insensitive).
    const contentTypes = Object.keys(content).map((t) => t.toLowerCase());
    const media = Object.entries(content).map(([type, m]) => {
      const pointer = childPointer(rp, 'content', type, 'schema');
      return m?.schema !== undefined
        ? {
            contentType: type.toLowerCase(),
            schema: { schema: m.schema, pointer },
            validate: validators.compile(m.schema, pointer),
          }
        : { contentType: type.toLowerCase() };
    });
    const first = media[0];
    const links = (r as { links?: unknown }).links;
    const rawHeaders = (r as { headers?: unknown }).headers;
    const headers: HeaderModel[] = [];
    for (const [name, h] of Object.entries(isSchemaObject(rawHeaders) ? rawHeaders : {})) {
      if (name.toLowerCase() === 'content-type') continue;
      const { value, pointer: hp } = resolveReference(doc, h as never, childPointer(rp, 'headers', name));
      const header = value as { required?: unknown; schema?: unknown };
      const schema = isSchemaObject(header) && header.schema !== undefined ? header.schema : undefined;
      headers.push({
        name,
        required: isSchemaObject(header) && header.required === true,
        pointer: hp,
        ...(schema !== undefined
          ? {
              schema: { schema, pointer: childPointer(hp, 'schema') },
              validate: validators.compile(schema, childPointer(hp, 'schema')),
            }
          : {}),
      });
    }
    responses.set(status, {
      status,
      description: r.description,
      contentTypes,
      schemaName: refName(first?.schema?.schema),
      schema: first?.schema,
      validate: first?.validate,
      media,
      ...(isSchemaObject(links) ? { links: { links, pointer: childPointer(rp, 'links') } } : {}),
      headers,
    });
  }
  return responses;
}

function requestBodiesOf(
  doc: OpenApiDocument,
  op: OperationLocation,
  validators: SchemaValidators,
): { bodies: RequestBodyModel[]; required: boolean } {
  if (op.operation.requestBody === undefined) return { bodies: [], required: false };
  const { value: body, pointer: bp } = resolveReference(
    doc,
    op.operation.requestBody,
    childPointer(op.pointer, 'requestBody'),
  );
  const bodies = Object.entries(body.content ?? {}).map(([contentType, media]): RequestBodyModel => {
    const schema =
      media?.schema !== undefined
        ? { schema: media.schema, pointer: childPointer(bp, 'content', contentType, 'schema') }
        : undefined;
    return {
      contentType,
      schema,
      validate: schema && validators.compile(schema.schema, schema.pointer),
      examples: mediaExamples(media, media?.schema),
    };
  });
  return { bodies, required: body.required === true };
}

export function operationModel(
  doc: OpenApiDocument,
  op: OperationLocation,
  validators: SchemaValidators,
): OperationModel {
  const { operation, pointer } = op;
  const { bodies, required } = requestBodiesOf(doc, op, validators);
  // OpenAPI 3.1 §4.8.10: an operation's own `security` overrides the document's.
  const security = (operation.security ?? doc.security ?? []).map((requirement) =>
    Object.entries(requirement).map(([name, scopes]) =>
      schemeModel(doc, name, Array.isArray(scopes) ? scopes.map(String) : []),
    ),
  );
  const isBearer = (s: SecuritySchemeModel) => credentialKind(s) === 'bearer';
  const first = bodies[0];
  return {
    path: op.path,
    method: op.method,
    operationId: operation.operationId ?? `${op.method} ${op.path}`,
    pointer,
    ...(typeof (operation as { description?: unknown }).description === 'string'
      ? { description: (operation as unknown as { description: string }).description }
      : {}),
    parameters: op.parameters.map(({ parameter: p, pointer: pp }): ParameterModel => {
      const raw = p as { description?: unknown; style?: unknown; explode?: unknown; content?: unknown };
      // A parameter declared with `content` (a map of one media type) instead of `schema`: its media type's schema.
      const content = isSchemaObject(raw.content) ? Object.entries(raw.content)[0] : undefined;
      const contentSchema =
        content && isSchemaObject(content[1]) ? (content[1] as { schema?: unknown }).schema : undefined;
      const schema =
        p.schema !== undefined
          ? { schema: p.schema, pointer: childPointer(pp, 'schema') }
          : contentSchema !== undefined
            ? { schema: contentSchema, pointer: childPointer(pp, 'content', content![0], 'schema') }
            : undefined;
      const style =
        typeof raw.style === 'string' ? raw.style : p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple';
      const examples = [
        p.example,
        ...Object.values(p.examples ?? {}).map((e) => e?.value),
        ...(isSchemaObject(p.schema) && Array.isArray(p.schema.examples) ? (p.schema.examples as unknown[]) : []),
      ].filter((v) => v !== undefined);
      return {
        name: p.name,
        in: p.in,
        required: p.required === true || p.in === 'path',
        ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
        style,
        explode: typeof raw.explode === 'boolean' ? raw.explode : style === 'form',
        schema,
        ...(content ? { contentType: content[0] } : {}),
        validate: schema && validators.compile(schema.schema, schema.pointer),
        example: examples[0],
        examples,
      };
    }),
    requestContentTypes: bodies.map((b) => b.contentType),
    requestBodyRequired: required,
    requestSchema: first?.schema,
    requestExamples: first?.examples ?? [],
    validateRequest: first?.validate,
    requestBodies: bodies,
    responses: responsesOf(doc, op, validators),
    security,
    securitySchemes: security.flat(),
    bearerRequired: security.length > 0 && security.every((alternative) => alternative.some(isBearer)),
    open: security.length === 0 || security.some((alternative) => alternative.length === 0),
  };
}
