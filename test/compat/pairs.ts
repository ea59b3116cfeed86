// Pairs of documents for the compat tests, each written from spec/openapi.yaml
// by one change a spec author makes, with what JSON Schema 2020-12 and
// OpenAPI 3.1 say the change does to existing clients and existing servers
// (docs/compatibility.md gives each decision and its source), and what the
// execution is expected to show for each side that breaks: a failing check
// (a proof), or no failing check and why (the reference cannot show it).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as YAML from 'yaml';
import type { SideVerdict } from '../../conformance/compat/change.js';

const SPEC = fileURLToPath(new URL('../../../spec/openapi.yaml', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

export interface ExpectedChange {
  keyword: string;
  /** A part of its pointer. */
  at: string;
  clients: SideVerdict;
  servers: SideVerdict;
}

/** What the execution shows for a side the rules say breaks: a failing check tied to the change, or none and why. */
export type ExpectedProof = 'proof' | 'rule-only';

export interface Pair {
  name: string;
  /** Edits spec/openapi.yaml into the old document (none: the shipped one). */
  base?: (doc: Doc) => void;
  /** Edits the old document into the new one; or the file of test/fixtures/ to use as the new one. */
  head: ((doc: Doc) => void) | string;
  /** Every change the pair makes, as the rules classify it. */
  changes: ExpectedChange[];
  /** Per side that the rules say breaks, what the execution shows for the change named first. */
  proof?: Partial<Record<'clients' | 'servers', ExpectedProof>>;
  /** The command's exit code: 0 compatible, 1 breaking. */
  exit: 0 | 1;
}

const plant = (doc: Doc) => doc.components.schemas.Plant;
const newPlantOwn = (doc: Doc) => doc.components.schemas.NewPlant.allOf[1];
const post = (doc: Doc) => doc.paths['/plants'].post;

/** The 200 answer described by a schema of its own (PlantAnswer, a copy of Plant): a change to it is a change to the answer alone. */
function answerOfItsOwn(doc: Doc): void {
  doc.components.schemas.PlantAnswer = structuredClone(plant(doc));
  post(doc).responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/PlantAnswer' };
}

/** Plant gets `origin`, one of two objects told apart by `kind` (a const): the branches are disjoint. */
function originOneOf(discriminated: boolean) {
  return (doc: Doc): void => {
    const branch = (kind: string, field: string) => ({
      type: 'object',
      required: discriminated ? ['kind', field] : [field],
      properties: { ...(discriminated ? { kind: { const: kind } } : {}), [field]: { type: 'string', minLength: 1 } },
    });
    plant(doc).properties.origin = { oneOf: [branch('country', 'country'), branch('nursery', 'nursery')] };
  };
}

export const PAIRS: Pair[] = [
  {
    name: 'request bound tightened: the id gets minimum 1',
    head: (doc) => (newPlantOwn(doc).properties.id.minimum = 1),
    changes: [{ keyword: 'minimum', at: '/NewPlant/allOf/1/properties/id/minimum', clients: 'breaks', servers: 'compatible' }],
    proof: { clients: 'proof' },
    exit: 1,
  },
  {
    name: 'request bound loosened: the id loses minimum 1',
    base: (doc) => (newPlantOwn(doc).properties.id.minimum = 1),
    head: (doc) => delete newPlantOwn(doc).properties.id.minimum,
    changes: [{ keyword: 'minimum', at: '/properties/id/minimum', clients: 'compatible', servers: 'breaks' }],
    proof: { servers: 'proof' },
    exit: 1,
  },
  {
    name: "response bound tightened: the answer's name gets maxLength 50",
    base: answerOfItsOwn,
    head: (doc) => (doc.components.schemas.PlantAnswer.properties.name.maxLength = 50),
    changes: [{ keyword: 'maxLength', at: '/PlantAnswer/properties/name/maxLength', clients: 'compatible', servers: 'breaks' }],
    proof: { servers: 'proof' },
    exit: 1,
  },
  {
    name: "response bound loosened: the answer's name loses maxLength 50 (the request keeps it)",
    base: (doc) => {
      plant(doc).properties.name.maxLength = 50;
      answerOfItsOwn(doc);
    },
    head: (doc) => delete doc.components.schemas.PlantAnswer.properties.name.maxLength,
    changes: [{ keyword: 'maxLength', at: '/PlantAnswer/properties/name/maxLength', clients: 'breaks', servers: 'compatible' }],
    // The reference still refuses names over 50 (the request keeps the bound), so it never answers one: no check can show it.
    proof: { clients: 'rule-only' },
    exit: 1,
  },
  {
    name: 'bounds loosened on both sides: Plant.name loses maxLength 50 (request and answer)',
    base: (doc) => (plant(doc).properties.name.maxLength = 50),
    head: (doc) => delete plant(doc).properties.name.maxLength,
    changes: [{ keyword: 'maxLength', at: '/Plant/properties/name/maxLength', clients: 'breaks', servers: 'breaks' }],
    proof: { clients: 'proof', servers: 'proof' },
    exit: 1,
  },
  {
    name: 'bounds tightened on both sides: Plant.name gets maxLength 50',
    head: 'name-max-length.yaml',
    changes: [{ keyword: 'maxLength', at: '/Plant/properties/name/maxLength', clients: 'breaks', servers: 'breaks' }],
    proof: { clients: 'proof', servers: 'proof' },
    exit: 1,
  },
  {
    name: 'a new required property: quantity',
    head: 'new-required-field.yaml',
    changes: [
      { keyword: 'required', at: '/NewPlant/allOf/1/required', clients: 'breaks', servers: 'compatible' },
      { keyword: 'properties', at: '/NewPlant/allOf/1/properties/quantity', clients: 'compatible', servers: 'compatible' },
      { keyword: 'withTag', at: '/examples/withTag', clients: 'compatible', servers: 'compatible' },
      { keyword: 'withoutTag', at: '/examples/withoutTag', clients: 'compatible', servers: 'compatible' },
    ],
    proof: { clients: 'proof' },
    exit: 1,
  },
  {
    name: 'a new optional property of the request alone: note',
    head: (doc) => (newPlantOwn(doc).properties.note = { type: 'string' }),
    changes: [{ keyword: 'properties', at: '/NewPlant/allOf/1/properties/note', clients: 'compatible', servers: 'compatible' }],
    exit: 0,
  },
  {
    name: 'a new optional property of Plant, which the answer carries back: colour',
    head: 'plant-extra-string.yaml',
    changes: [
      { keyword: 'properties', at: '/Plant/properties/colour', clients: 'compatible', servers: 'compatible' },
      { keyword: 'echo', at: '/responses/200/', clients: 'compatible', servers: 'breaks' },
    ],
    proof: { servers: 'proof' },
    exit: 1,
  },
  {
    name: 'nullability added: tag may be null',
    head: 'tag-nullable.yaml',
    changes: [{ keyword: 'type', at: '/Plant/properties/tag/type', clients: 'breaks', servers: 'breaks' }],
    proof: { clients: 'proof', servers: 'proof' },
    exit: 1,
  },
  {
    name: 'nullability removed: tag may no longer be null',
    base: (doc) => (plant(doc).properties.tag.type = ['string', 'null']),
    head: (doc) => (plant(doc).properties.tag.type = 'string'),
    changes: [{ keyword: 'type', at: '/Plant/properties/tag/type', clients: 'breaks', servers: 'breaks' }],
    proof: { clients: 'proof', servers: 'proof' },
    exit: 1,
  },
  {
    name: 'enum added: tag is one of five',
    head: 'tag-enum.yaml',
    changes: [{ keyword: 'enum', at: '/Plant/properties/tag/enum', clients: 'breaks', servers: 'breaks' }],
    proof: { clients: 'proof', servers: 'proof' },
    exit: 1,
  },
  {
    name: 'enum value removed: succulent',
    base: (doc) => (plant(doc).properties.tag.enum = ['tropical', 'succulent', 'fern']),
    head: (doc) => (plant(doc).properties.tag.enum = ['tropical', 'fern']),
    changes: [{ keyword: 'enum', at: '/Plant/properties/tag/enum', clients: 'breaks', servers: 'breaks' }],
    proof: { clients: 'proof', servers: 'rule-only' },
    exit: 1,
  },
  {
    name: 'enum value added: succulent',
    base: (doc) => (plant(doc).properties.tag.enum = ['tropical', 'fern']),
    head: (doc) => (plant(doc).properties.tag.enum = ['tropical', 'fern', 'succulent']),
    changes: [{ keyword: 'enum', at: '/Plant/properties/tag/enum', clients: 'breaks', servers: 'breaks' }],
    proof: { clients: 'rule-only', servers: 'proof' },
    exit: 1,
  },
  {
    name: 'oneOf with disjoint branches (a const kind): a branch tightened',
    base: originOneOf(true),
    head: (doc) => (plant(doc).properties.origin.oneOf[1].properties.nursery.minLength = 3),
    changes: [{ keyword: 'minLength', at: '/origin/oneOf/1/properties/nursery/minLength', clients: 'breaks', servers: 'breaks' }],
    // The checks send no value just inside a bound below oneOf: the rule stands alone (docs/document.md, keyword cases).
    proof: { clients: 'rule-only', servers: 'rule-only' },
    exit: 1,
  },
  {
    name: 'oneOf with disjoint branches: a branch added',
    base: originOneOf(true),
    head: (doc) => plant(doc).properties.origin.oneOf.push({ type: 'object', required: ['kind', 'seed'], properties: { kind: { const: 'seed' }, seed: { type: 'string' } } }),
    changes: [{ keyword: 'oneOf', at: '/origin/oneOf/2', clients: 'breaks', servers: 'breaks' }],
    // The new server answers the new branch only to a request the old document refuses (the checks of the old document never send one).
    proof: { clients: 'rule-only', servers: 'proof' },
    exit: 1,
  },
  {
    name: 'oneOf whose branches may overlap: a branch tightened',
    base: originOneOf(false),
    head: (doc) => (plant(doc).properties.origin.oneOf[1].properties.nursery.minLength = 3),
    changes: [{ keyword: 'minLength', at: '/origin/oneOf/1/properties/nursery/minLength', clients: 'unknown', servers: 'unknown' }],
    exit: 0,
  },
  {
    name: 'a property removed from the answer: tag',
    base: answerOfItsOwn,
    head: (doc) => delete doc.components.schemas.PlantAnswer.properties.tag,
    changes: [
      { keyword: 'properties', at: '/PlantAnswer/properties/tag', clients: 'breaks', servers: 'compatible' },
      { keyword: 'echo', at: '/responses/200/', clients: 'breaks', servers: 'compatible' },
    ],
    proof: { clients: 'proof' },
    exit: 1,
  },
  {
    name: 'a new status: 409',
    head: (doc) => (post(doc).responses['409'] = { description: 'The id is stored already', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }),
    changes: [{ keyword: 'response', at: '/responses/409', clients: 'breaks', servers: 'compatible' }],
    // The reference answers as it did: a status the document now allows is a promise no check meets.
    proof: { clients: 'rule-only' },
    exit: 1,
  },
  {
    name: 'a changed security scheme: bearer becomes an API key header',
    head: (doc) => (doc.components.securitySchemes.bearerAuth = { type: 'apiKey', in: 'header', name: 'X-Api-Key' }),
    changes: [
      { keyword: 'securityScheme', at: '/components/securitySchemes/bearerAuth', clients: 'breaks', servers: 'breaks' },
      { keyword: 'description', at: '/components/securitySchemes/bearerAuth/description', clients: 'compatible', servers: 'compatible' },
    ],
    // The reference authenticates with bearer tokens whatever the document says.
    proof: { clients: 'rule-only', servers: 'rule-only' },
    exit: 1,
  },
  {
    name: 'a new operation: GET /plants/{id}',
    head: 'get-plant-by-id.yaml',
    changes: [{ keyword: 'operation', at: '/paths/~1plants~1{id}/get', clients: 'compatible', servers: 'breaks' }],
    proof: { servers: 'proof' },
    exit: 1,
  },
  {
    name: 'descriptions, summaries and examples only',
    head: (doc) => {
      doc.info.description = 'The service keeps a store of plants.';
      post(doc).summary = 'Create one plant';
      plant(doc).properties.name.description = 'What the plant is called';
      plant(doc).examples = [{ name: 'Ficus' }];
      post(doc).requestBody.content['application/json'].examples.withTag.value.name = 'Ficus';
    },
    changes: [
      { keyword: 'description', at: '#/info/description', clients: 'compatible', servers: 'compatible' },
      { keyword: 'summary', at: '/post/summary', clients: 'compatible', servers: 'compatible' },
      { keyword: 'description', at: '/Plant/properties/name/description', clients: 'compatible', servers: 'compatible' },
      { keyword: 'examples', at: '/Plant/examples', clients: 'compatible', servers: 'compatible' },
      { keyword: 'withTag', at: '/examples/withTag', clients: 'compatible', servers: 'compatible' },
    ],
    exit: 0,
  },
  {
    // The rules cannot tell; the execution can: the old checks send a name the new pattern refuses (a check fails that no rule saw).
    name: 'a pattern changed: the languages are not compared',
    base: (doc) => (plant(doc).properties.name.pattern = '^[A-Z]'),
    head: (doc) => (plant(doc).properties.name.pattern = '^[A-Z][a-z]'),
    changes: [{ keyword: 'pattern', at: '/Plant/properties/name/pattern', clients: 'unknown', servers: 'unknown' }],
    exit: 1,
  },
  {
    name: 'an inline schema moved to a component of its own: the same schema',
    head: (doc) => {
      doc.components.schemas.PlantId = newPlantOwn(doc).properties.id;
      newPlantOwn(doc).properties.id = { $ref: '#/components/schemas/PlantId' };
    },
    changes: [{ keyword: '$ref', at: '/properties/id', clients: 'compatible', servers: 'compatible' }],
    exit: 0,
  },
];

/** The shipped document, parsed. */
function shipped(): Doc {
  return YAML.parse(readFileSync(SPEC, 'utf8'), { intAsBigInt: false });
}

/** Writes the pair's two documents into `dir`; returns their paths. */
export function writePair(pair: Pair, dir: string, slug: string): { base: string; head: string } {
  mkdirSync(dir, { recursive: true });
  const base = shipped();
  pair.base?.(base);
  const basePath = join(dir, `${slug}.base.yaml`);
  writeFileSync(basePath, YAML.stringify(base));
  let headPath: string;
  if (typeof pair.head === 'string') headPath = join(FIXTURES, pair.head);
  else {
    const head = structuredClone(base);
    pair.head(head);
    headPath = join(dir, `${slug}.head.yaml`);
    writeFileSync(headPath, YAML.stringify(head));
  }
  return { base: basePath, head: headPath };
}

export const slugOf = (name: string) => name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase().slice(0, 60);
