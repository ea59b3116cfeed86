// The module the build writes to dist/spec/openapi.validator.js
// (scripts/bundle-server.mjs, with server/http/request-body.ts requestBodyValidatorModule):
// the validator of the shipped document's request body as Ajv standalone
// code, and what it was generated from. The server (server/http/validation.ts)
// uses it only for that document's own text.
import type { ValidateFunction } from 'ajv';
import type { UncheckedFormat } from './validator.js';

/** The text of the document it was generated from. */
export declare const source: string;
/** The pointer of the request body's schema in that document. */
export declare const schemaPointer: string;
/** Ajv's function; validator.ts validatorOf wraps it. */
export declare const validate: ValidateFunction;
export declare const uncheckedFormats: UncheckedFormat[];
