// The build's half of meta-schema.ts: the validator of JSON Schema
// 2020-12's meta-schema as the text of a CommonJS module (Ajv's standalone
// code), made by an Ajv with the validators' options that bear on checking a
// schema (allErrors, verbose, the formats), so that it reports what their
// Ajv's validateSchema reports; it runs `pattern` on V8's engine, which the
// meta-schema's two fixed patterns ($anchor, $dynamicAnchor) need no more
// than ours. CommonJS, because
// a schema is checked inside synchronous calls (buildApp throws a
// DocumentError as it is called), which can require() it but not import()
// it. Its runtime helpers (ajv's, ajv-formats') are required from
// node_modules, as Ajv's compiler is (ajv.ts).
import { ajvModules } from './ajv.js';
import { checkedStringFormats } from './validator.js';

const META_SCHEMA = 'https://json-schema.org/draft/2020-12/schema';

export function metaSchemaValidatorModule(): string {
  const { ajv: ajvModule, addFormats, standaloneCode } = ajvModules();
  const ajv = new ajvModule.default({
    allErrors: true,
    strict: false,
    logger: false,
    verbose: true,
    code: { source: true },
  });
  addFormats(ajv, checkedStringFormats() as Parameters<typeof addFormats>[1]);
  const validate = ajv.getSchema(META_SCHEMA);
  if (validate === undefined) throw new Error(`Ajv has no ${META_SCHEMA}`);
  return `// Generated at build time (spec/meta-schema-module.ts): do not edit.\n${standaloneCode(ajv, validate)}`;
}
