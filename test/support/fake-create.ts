// The fake server's create operation (fake-server.ts routes to it): the
// create rule of the document on a body that passed the credential and
// content-type checks, as each switch of fake-mutations.ts bends it.
import type { ServerResponse } from 'node:http';
import { INT64_MAX, INT64_MIN } from '../../spec/formats.js';
import { RawJson, send } from './fake-answers.js';
import type { FakeOptions } from './fake-mutations.js';
import { exactInteger, Num, parseJson, type Json } from './exact-json.js';

/** What the server keeps: the ids stored, and what the duplicate mutants remember instead. */
export interface State {
  store: Set<string>;
  /** duplicatesByName: the names created. */
  names: Set<string>;
  /** lastIdOnly: the previous create's id. */
  last?: string;
  /** darkAfterDeepNesting: blocked by a deep body, it answers nothing more. */
  dark?: boolean;
}

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings not counted). */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}

/**
 * The raceDuplicates mutant's window between its duplicate check and its
 * insert: a create waits there until another create of the same id has
 * passed the check too (then both insert: the race is lost, whatever the
 * scheduler does), or RACE_HOLD_MS passes for a create that has no twin in
 * flight (a create sent alone).
 */
const RACE_HOLD_MS = 5000;
const raceWaiting = new Map<string, () => void>();

function raceWindow(id: string): Promise<void> {
  const twin = raceWaiting.get(id);
  if (twin) {
    raceWaiting.delete(id);
    twin();
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const release = () => {
      clearTimeout(timer);
      if (raceWaiting.get(id) === release) raceWaiting.delete(id);
      resolve();
    };
    const timer = setTimeout(release, RACE_HOLD_MS);
    raceWaiting.set(id, release);
  });
}

/** How the server reads an id numeral (a JSON number as written): its key in the store, or why it refuses it. */
export function readId(o: FakeOptions, text: string): { id: string } | { problem: string } {
  const int64 = { problem: '/id must be an integer (int64)' };
  if (o.roundIds || o.doubleIds) {
    const d = Number(text);
    if (!Number.isInteger(d) || (o.roundIds && (d < -(2 ** 63) || d > 2 ** 63))) return int64;
    return { id: String(d) };
  }
  if (o.idByParseInt) return { id: BigInt(/^-?\d+/.exec(text)![0]).toString() };
  if (o.integralNumeralsAsDouble && /[.eE]/.test(text))
    return Number.isSafeInteger(Number(text)) ? { id: String(Number(text)) } : int64;
  let n = exactInteger(text);
  if (n === undefined && o.truncateFractions) n = BigInt(Math.trunc(Number(text)));
  if (n === undefined || (o.rejectIntegralNumerals && /[.eE]/.test(text))) return int64;
  if (!o.noInt64Bound && (n < INT64_MIN || n > INT64_MAX)) return int64;
  if (o.int53Ids && (n > 2n ** 53n - 1n || n < -(2n ** 53n - 1n))) return { problem: '/id must be a safe integer' };
  if (o.positiveIdsOnly && n <= 0n) return { problem: '/id must be positive' };
  if (o.zeroIdMissing && n === 0n) return { problem: "/ must have required property 'id'" };
  return { id: (o.signDropped && n < 0n ? -n : n).toString() };
}

/** A Fastify server's own answer to a body it cannot parse (frameworkParseErrors): 400, but not the document's Error. */
function frameworkError(res: ServerResponse, o: FakeOptions, message: string): void {
  send(res, 400, o, { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY', error: 'Bad Request', message });
}

/** Properties the schema does not name, as JSON.parse reads them (numbers as doubles), scalars only (echoExtras). */
function extrasOf(text: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(parsed).filter(
        ([k, v]) => !['id', 'name', 'tag'].includes(k) && (v === null || typeof v !== 'object'),
      ),
    );
  } catch {
    return {};
  }
}

/** A noncharacter of the BMP written as a JSON escape: U+FDD0..U+FDEF, U+FFFE, U+FFFF. */
const ESCAPED_NONCHARACTER = /\\u(fdd[0-9a-f]|fde[0-9a-f]|fff[ef])/i;
/** A surrogate escape not part of a high-low pair (RFC 8259 §8.2). */
const LONE_SURROGATE_ESCAPE =
  /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f][0-9a-f]{2})|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i;

/** The create rule on a body that passed the credential and content-type checks. */
export async function createPlant(
  o: FakeOptions,
  state: State,
  res: ServerResponse,
  raw: Buffer,
  invalid: (error: number, message: string) => void,
): Promise<void> {
  const { store } = state;
  if (raw.length === 0) {
    if (o.emptyBodyOk) return send(res, 200, o, { name: '' });
    if (o.frameworkParseErrors)
      return frameworkError(res, o, "Body cannot be empty when content-type is set to 'application/json'");
    return invalid(40002, 'Request body is required.');
  }
  if (o.bodyLimit413 && raw.length > 8 * 1024)
    return send(res, 413, o, { error: 41301, message: 'Request body is too large.' });
  if (!o.latin1Body) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch (error) {
      // The mutant lets the decoder's error escape: handle() answers 500.
      if (o.fatalOnBadUtf8) throw error;
      return invalid(40001, 'Request body is not UTF-8.');
    }
  }
  let text = o.latin1Body ? raw.toString('latin1') : raw.toString('utf8');
  if (o.stripBom) text = text.replace(/^\uFEFF/, '');
  if (o.stripWhitespaceEverywhere) text = text.replace(/[ \t\r\n]/g, '');
  if (
    (o.dropDeepNesting || o.deepNesting500 || o.hangOnDeepNesting || o.darkAfterDeepNesting || o.depthLimit) &&
    nestingDepth(text) > 1000
  ) {
    if (o.dropDeepNesting) return void res.socket?.destroy();
    if (o.hangOnDeepNesting) return; // closed by close() through closeAllConnections
    if (o.darkAfterDeepNesting) return void (state.dark = true);
    if (o.depthLimit) return send(res, o.depthLimit, o, { error: 40008, message: 'Request body is nested too deep.' });
    return send(res, 500, o, { error: 50001, message: 'Internal server error.' });
  }
  // Escapes a decoder trips on (the mutants) or refuses (an allowed choice, RFC 8259 §8.2 for a lone surrogate).
  if (o.fatalOnEscapedNoncharacters && ESCAPED_NONCHARACTER.test(text))
    return send(res, 500, o, { error: 50001, message: 'Internal server error.' });
  if ((o.fatalOnEscapedSurrogate || o.refuseEscapedSurrogates) && LONE_SURROGATE_ESCAPE.test(text)) {
    if (o.refuseEscapedSurrogates) return invalid(40001, 'Request body holds an unpaired surrogate escape.');
    return send(res, 500, o, { error: 50001, message: 'Internal server error.' });
  }
  let body: Json;
  try {
    body = parseJson(text, !!o.acceptTrailingGarbage, {
      whitespace: o.tabAndCrNotWhitespace ? ' \n' : undefined,
      rawStrings: o.undecodedEscapes,
      rawNames: o.undecodedEscapedNames,
      lastWins: o.repeatedNameLastWins,
    });
  } catch {
    if (o.acceptMalformed) return send(res, 200, o, { name: '' });
    if (o.storeThenRefuseGarbage) storeFirstValue(o, store, text);
    if (o.frameworkParseErrors)
      return frameworkError(res, o, "Body is not valid JSON but content-type is set to 'application/json'");
    return invalid(40001, 'Request body is not JSON.');
  }
  if (o.unwrapArray && Array.isArray(body) && body.length === 1) body = body[0]!;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || body instanceof Num) {
    return invalid(40003, 'Request body is not a valid NewPlant: / must be object.');
  }
  const fields = body;
  if (o.caseInsensitiveNames) {
    for (const k of Object.keys(fields)) {
      const lower = k.toLowerCase();
      if (lower !== k && ['id', 'name', 'tag'].includes(lower) && !(lower in fields))
        [fields[lower], fields[k]] = [fields[k]!, undefined as unknown as Json];
    }
    for (const k of Object.keys(fields)) if (fields[k] === undefined) delete fields[k];
  }
  if (o.idFirstOnly && Object.keys(fields)[0] !== 'id')
    return invalid(40003, 'Request body is not a valid NewPlant: id must come first.');
  if (o.refuseProtoNames && Object.keys(fields).some((k) => k === '__proto__' || k === 'constructor'))
    return invalid(40003, 'Request body is not a valid NewPlant: forbidden member name.');
  if (o.acceptNull) for (const k of Object.keys(fields)) if (fields[k] === null) delete fields[k];
  if (o.stringsByPosition) {
    const strings = Object.values(fields).filter((v): v is string => typeof v === 'string');
    if (strings[0] !== undefined) fields.name = strings[0];
    if (strings[1] !== undefined) fields.tag = strings[1];
  }
  const problems: string[] = [];
  // id
  let id: string | undefined;
  let idv = fields.id;
  if (o.coerceStrings && typeof idv === 'string' && /^-?\d+$/.test(idv)) idv = new Num(idv);
  if (o.zeroValueIds && (idv === undefined || idv === null)) idv = new Num('0');
  if (o.booleanIds && typeof idv === 'boolean') idv = new Num(idv ? '1' : '0');
  if (idv === undefined) problems.push("/ must have required property 'id'");
  else if (!(idv instanceof Num)) problems.push('/id must be an integer (int64)');
  else {
    const read = readId(o, idv.text);
    if ('problem' in read) problems.push(read.problem);
    else id = read.id;
  }
  // strings
  const str = (k: string, required: boolean): string | undefined => {
    let v = fields[k];
    if (o.coerceStrings && v instanceof Num) v = v.text;
    if (v === undefined) {
      if (required && !o.acceptMissingName) problems.push(`/ must have required property '${k}'`);
      return undefined;
    }
    if (typeof v !== 'string') {
      problems.push(`/${k} must be a string`);
      return undefined;
    }
    if (o.trimStrings) v = v.trim();
    if (o.nonCharactersReplaced) v = v.replace(/[\ufffe\uffff\ufdd0-\ufdef]/g, '\ufffd');
    return v;
  };
  const name = str('name', true);
  const tag = str('tag', false);
  if (o.refuseNul && [name, tag].some((v) => v?.includes('\u0000'))) problems.push('/name must not contain U+0000');
  if (o.requireTag && tag === undefined) problems.push("/ must have required property 'tag'");
  if (o.rejectEmptyName && name === '') problems.push('/name must not be empty');
  if (o.nameMaxLength && name !== undefined && name.length > 100) problems.push('/name is too long');
  if (o.rejectUnknownProps)
    for (const k of Object.keys(fields)) if (!['id', 'name', 'tag'].includes(k)) problems.push(`/${k} is not allowed`);
  const duplicate = () => {
    if (o.duplicatePlain400) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      return void res.end('Duplicate id');
    }
    const message = o.duplicatesByName
      ? `A plant named ${JSON.stringify(name)} already exists.`
      : o.duplicateWithoutId
        ? 'A plant with this id already exists.'
        : `A plant with id ${id} already exists.`;
    send(res, o.duplicate500 ? 500 : o.duplicate409 ? 409 : 400, o, { error: 40004, message });
  };
  if (o.storeBeforeValidate && id !== undefined) {
    if (store.has(id)) return duplicate();
    store.add(id);
  }
  if (problems.length > 0) return invalid(40003, `Request body is not a valid NewPlant: ${problems.join(', ')}.`);
  if (o.duplicatesByName) {
    if (state.names.has(name!)) return duplicate();
    state.names.add(name!);
  } else if (o.lastIdOnly) {
    if (state.last === id) return duplicate();
    state.last = id;
  } else if (!o.storeBeforeValidate) {
    if (store.has(id!) && !o.duplicatesAccepted) return duplicate();
    if (o.raceDuplicates || o.uniqueViolation500) await raceWindow(id!);
    // The database's unique constraint catches the create that lost the race; its error escapes (handle() answers 500).
    if (o.uniqueViolation500 && store.has(id!)) throw new Error('duplicate key value violates unique constraint');
    store.add(id!);
  }
  return send(res, o.status201 ? 201 : 200, o, answerOf(o, id!, name ?? '', tag, text));
}

/** The Plant a valid create is answered with, as the mutants shape it. */
function answerOf(o: FakeOptions, id: string, name: string, tag: string | undefined, text: string): unknown {
  if (o.staticExample) return { name: 'Monstera', tag: 'tropical' };
  const kept = (s: string) => {
    const cut = o.truncateLongStrings ? s.slice(0, 100) : s;
    return o.normalizeNfc ? cut.normalize('NFC') : cut;
  };
  const plant: Record<string, unknown> = o.echoExtras ? extrasOf(text) : {};
  if (!(o.dropEmptyStrings && name === '')) plant.name = kept(name);
  if (tag === undefined) {
    if (o.nullForUnsentTag) plant.tag = null;
    else if (o.defaultTag) plant.tag = '';
  } else if (!o.dropTag && !(o.dropEmptyStrings && tag === '') && !(o.dropLongTag && tag.length > 255))
    plant.tag = kept(tag);
  // The id as the server holds it, a JSON number of its digits (a double prints as JavaScript writes it).
  return o.echoId
    ? new RawJson(`${JSON.stringify(plant).slice(0, -1)}${Object.keys(plant).length > 0 ? ',' : ''}"id":${id}}`)
    : plant;
}

/** storeThenRefuseGarbage: the first JSON value of the text, when it is a plant with a valid id, is stored before the garbage after it is seen. */
function storeFirstValue(o: FakeOptions, store: Set<string>, text: string): void {
  try {
    const first = parseJson(text, true);
    const idv =
      first !== null && typeof first === 'object' && !Array.isArray(first) && !(first instanceof Num)
        ? first.id
        : undefined;
    if (idv instanceof Num) {
      const read = readId(o, idv.text);
      if ('id' in read) store.add(read.id);
    }
  } catch {
    // not even a first value: nothing stored
  }
}
