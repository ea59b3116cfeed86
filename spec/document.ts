// The model of an OpenAPI document that the server and the harness share:
// its objects as TypeScript types, and the error for a document either
// cannot use. spec/openapi.ts reads a document into it.
import { StartError } from '../lib/start-error.js';
import type { JsonSchema } from './schema-keywords.js';

/** The HTTP methods an OpenAPI Path Item may hold (OpenAPI 3.1 §4.8.9). */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface MediaTypeObject {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value?: unknown; $ref?: string }>;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
  $ref?: string;
}

export interface ResponseObject {
  description: string;
  content?: Record<string, MediaTypeObject>;
  headers?: Record<string, unknown>;
  $ref?: string;
}

export interface OperationObject {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, MediaTypeObject>; $ref?: string };
  responses: Record<string, ResponseObject>;
}

export type PathItemObject = Partial<Record<(typeof HTTP_METHODS)[number], OperationObject>> & {
  parameters?: ParameterObject[];
};

export interface OpenApiDocument {
  openapi: string;
  jsonSchemaDialect?: string;
  info: { title: string; version: string };
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes?: Record<string, Record<string, unknown>>;
    [section: string]: Record<string, unknown> | undefined;
  };
  security?: Array<Record<string, string[]>>;
}

/**
 * A document the server cannot serve, or the harness cannot read: the
 * keyword (when one is to blame) and its location as a JSON pointer into the
 * document, e.g. `maxLenght at #/components/schemas/Plant/properties/name/maxLenght`.
 */
export class DocumentError extends StartError {
  override readonly name = 'DocumentError';
  constructor(
    readonly pointer: string,
    readonly keyword: string | undefined,
    readonly detail: string,
  ) {
    super(
      'PLANTSTORE_DOCUMENT',
      keyword === undefined ? `${pointer}: ${detail}` : `${keyword} at ${pointer}: ${detail}`,
    );
  }
}
