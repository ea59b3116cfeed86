// The fake server's switches (test/support/fake-server.ts): each breaks
// exactly one rule, so that a test can show that the check for that rule
// grades `fail` (or `non-strict`); and the options that are no mutation (the
// tokens, a path prefix, a gateway in front).

export interface Mutations {
  coerceStrings?: boolean; // "7" read as 7, 42 read as "42"
  noWwwAuthenticate?: boolean; // 401 without WWW-Authenticate
  roundIds?: boolean; // ids parsed into doubles
  int53Ids?: boolean; // ids beyond ±(2^53-1) refused
  noInt64Bound?: boolean; // any integer accepted as an id
  truncateFractions?: boolean; // 1.5 read as 1
  rejectIntegralNumerals?: boolean; // 5.0 refused
  positiveIdsOnly?: boolean; // ids <= 0 refused
  acceptMissingName?: boolean;
  acceptNull?: boolean; // null read as absent
  unwrapArray?: boolean; // [plant] read as plant
  emptyBodyOk?: boolean; // no body answered 200
  acceptMalformed?: boolean; // a body that is not JSON answered 200
  acceptTrailingGarbage?: boolean; // text after the JSON value ignored
  ignoreContentType?: boolean;
  lowercaseBearerRejected?: boolean; // scheme compared case-sensitively
  noAuth?: boolean; // missing credentials accepted
  acceptAnyScheme?: boolean; // Basic accepted
  acceptEmptyToken?: boolean;
  acceptMalformedToken?: boolean;
  acceptAnyToken?: boolean; // token list ignored
  bodyBeforeAuth?: boolean; // body parsed before credentials are checked
  no405?: boolean; // other methods answered 404
  no405Allow?: boolean; // 405 without Allow
  unknownPath200?: boolean;
  duplicatesAccepted?: boolean;
  status422?: boolean; // invalid bodies answered 422 (with an Error body)
  errorBodyWrongShape?: boolean; // 400 bodies as { code, msg }
  wrongContentType?: boolean; // JSON answers labelled text/plain
  dropTag?: boolean; // the tag is not echoed
  latin1Body?: boolean; // body decoded as latin1
  rejectEmptyName?: boolean;
  nameMaxLength?: boolean; // names over 100 characters refused
  rejectUnknownProps?: boolean;
  requireTag?: boolean;
  hangGet?: boolean; // GET on the operation path never answered (the harness must time out, not hang)
  truncateLongStrings?: boolean; // names and tags over 100 characters stored cut to 100
  tabAndCrNotWhitespace?: boolean; // only space and LF skipped between tokens
  idFirstOnly?: boolean; // a body whose first member is not the id refused (a hand-rolled reader)
  undecodedEscapes?: boolean; // \uXXXX and \/ kept as written in names and values
  exactMediaType?: boolean; // Content-Type compared as the string "application/json"
  decodeEachChunk?: boolean; // each piece of the body decoded as UTF-8 on its own
  lengthRequired?: boolean; // a body without Content-Length answered 411
  exactFieldNames?: boolean; // the Authorization field looked up as written: "authorization" or "Authorization"
  oneSpaceAfterBearer?: boolean; // "Bearer" then exactly one space
  tokenPrefixMatch?: boolean; // a token that starts with a known one accepted
  tokenIgnoreCase?: boolean; // tokens compared in any letter case
  fatalOnBadUtf8?: boolean; // a body that is not UTF-8 answered 500
  dropDeepNesting?: boolean; // nesting beyond 1 000 closes the connection
  deepNesting500?: boolean; // nesting beyond 1 000 answered 500
  charsetCrash?: boolean; // a charset other than utf-8 answered 500 (an unknown decoder)
  hangOnDeepNesting?: boolean; // nesting beyond 1 000 never answered (the connection stays open)
  acceptTokenAnyScheme?: boolean; // a known token accepted after any scheme (Basic <token>, Token <token>)
  acceptBareToken?: boolean; // a known token accepted with no scheme (Authorization: <token>)
  integralNumeralsAsDouble?: boolean; // an id written with a fraction or exponent read as a double: above 2^53 refused as not a safe integer
  trimStrings?: boolean; // string values stored and echoed without leading and trailing white space
  nonCharactersReplaced?: boolean; // noncharacters (U+FFFF, U+FDD0) echoed as U+FFFD
  fatalOnEscapedNoncharacters?: boolean; // a noncharacter written as an escape (\uffff) answered 500; raw, it is stored
  fatalOnEscapedSurrogate?: boolean; // a lone surrogate written as an escape (\ud800) answered 500 (a store that cannot encode it)
  refuseEscapedSurrogates?: boolean; // a lone surrogate written as an escape refused with 400 and an Error
  caseInsensitiveNames?: boolean; // member names matched in any letter case ({"ID":…,"NAME":…} is a NewPlant), as Go's encoding/json
  itemPath405?: boolean; // a method other than GET on /plants/{x} answered 405 with Allow: GET (a server that knows the item path)
  darkAfterDeepNesting?: boolean; // nesting beyond 1 000 blocks the server: that request and every one after it never answered
  storeBeforeValidate?: boolean; // the id is stored before the rest of the body is checked
  raceDuplicates?: boolean; // the duplicate check and the insert are apart in time
  otherMethods500?: boolean; // other methods on /plants answered 500
  extraOperations?: boolean; // GET /plants lists, DELETE /plants/{id} deletes (a correct server with more operations)
  status201?: boolean; // a valid create answered 201 (with the Plant) instead of the declared 200
  bareBearerChallenge?: boolean; // WWW-Authenticate: Bearer, with no auth-param (RFC 6750 §3)
  strictAccept?: boolean; // 406 unless Accept is absent or exactly application/json
  refuseNul?: boolean; // a string holding U+0000 refused (a text column that cannot hold NUL)
  // The wrong-reason mutants (test/support/mutants.ts WRONG_REASON_MUTANTS): each breaks a rule in a
  // way a naive check is fooled by, and the allowed choices (ALLOWED_CHOICES) a correct server makes.
  doubleIds?: boolean; // ids read as JavaScript doubles (Number), any integral double accepted, stored and named as the double prints
  signDropped?: boolean; // the id's digits read without its sign
  idByParseInt?: boolean; // an id numeral read as its integer prefix (parseInt: 50e-1 is 50)
  zeroIdMissing?: boolean; // the id 0 read as no id (a truthiness test)
  zeroValueIds?: boolean; // a missing or null id read as 0 (Go's zero value, Jackson's primitive long)
  booleanIds?: boolean; // a boolean id read as 0 or 1
  staticExample?: boolean; // a valid create answered 200 with the document's example, not the plant sent (a mock)
  nullForUnsentTag?: boolean; // an unsent tag echoed as null (a nullable column)
  dropEmptyStrings?: boolean; // a string field holding "" not echoed (a truthiness test)
  dropLongTag?: boolean; // a tag over 255 characters silently not stored nor echoed
  normalizeNfc?: boolean; // strings stored in Unicode normalization form C
  refuseProtoNames?: boolean; // a body with a member named __proto__ or constructor refused
  stripWhitespaceEverywhere?: boolean; // every space, tab, CR and LF removed before parsing, inside strings too
  stringsByPosition?: boolean; // name and tag read as the first and second string member, whatever their names
  undecodedEscapedNames?: boolean; // escapes decoded in values, not in member names
  malformedChallenge?: boolean; // WWW-Authenticate: Bearer realm=Plant Store (RFC 9110 §11.6.1 cannot parse it)
  challengeForScheme?: boolean; // another scheme refused with a challenge of that scheme (Basic realm=…), no Bearer
  malformedToken400Bare?: boolean; // an empty or malformed token answered 400 without WWW-Authenticate
  schemeCaseList?: boolean; // the scheme accepted as Bearer, bearer or BEARER only
  tokenIsPrefixOfKnown?: boolean; // a token that a known one starts with accepted
  parseError401?: boolean; // with bodyBeforeAuth: a body that is not JSON answered 401 without a challenge
  upToTwoSpaces?: boolean; // one or two spaces after Bearer; more are kept in the token
  allowOnGetOnly?: boolean; // 405 with Allow for GET; for the other methods without it
  subpath500?: boolean; // a path below the operation's answered 500 (a route parameter the server cannot read)
  charsetCaseSensitive?: boolean; // a charset parameter other than exactly utf-8 refused (415)
  contentLengthOnly?: boolean; // the body read by Content-Length only: a chunked body is read as empty
  exactContentTypeName?: boolean; // the Content-Type field looked up as written, "content-type"
  noTypeWildcardAccept?: boolean; // Accept: application/* answered 406
  duplicatesByName?: boolean; // a repeated name refused as a duplicate; ids never compared
  lastIdOnly?: boolean; // a repeated id refused only when it is the previous create's (a one-entry memory)
  duplicatePlain400?: boolean; // a duplicate id answered 400 text/plain, not an Error
  uniqueViolation500?: boolean; // creates of one id in flight together: the insert's unique violation answered 500
  errorCodeBeyondInt32?: boolean; // every Error's error number 100 000 times its value (beyond int32)
  problemJsonErrors?: boolean; // every error answered application/problem+json (the declared 400 included)
  duplicate500?: boolean; // a duplicate id answered 500
  frameworkParseErrors?: boolean; // a body that is empty or not JSON answered 400 with a framework's error body (Fastify's), not an Error
  storeThenRefuseGarbage?: boolean; // a valid plant followed by garbage: the plant stored, then the body refused
  longTokenDrop?: boolean; // an Authorization field over 4 KiB: the connection closed
  echoExtras?: boolean; // properties the schema does not name echoed (scalars), read as doubles (JSON.parse)
  // Allowed choices: a correct server may make each (ALLOWED_CHOICES).
  echoId?: boolean; // the answer carries the id as the server holds it (Plant allows other properties)
  duplicateWithoutId?: boolean; // the duplicate answer does not name the id
  defaultTag?: boolean; // an unsent tag echoed as "" (the specification does not say what it reads back as)
  malformedToken400?: boolean; // an empty or malformed token answered 400 invalid_request, with a Bearer challenge (RFC 6750 §3.1)
  credentials403?: boolean; // refused credentials answered 403, with the Bearer challenge
  allowWithoutPost?: boolean; // 405 with an Allow that omits POST
  problemJsonUndeclared?: boolean; // undeclared error statuses (401, 404, 405, 415) answered application/problem+json
  unsupportedMediaType400?: boolean; // another media type refused with the declared 400 and an Error, not 415
  duplicate409?: boolean; // a duplicate id answered 409 with an Error
  depthLimit?: 400 | 413 | 422; // nesting deeper than 1 000 refused with this status and an Error
  bodyLimit413?: boolean; // a body over 8 KiB answered 413
  stripBom?: boolean; // a byte order mark before the text ignored (RFC 8259 §8.1 allows it)
  repeatedNameLastWins?: boolean; // a repeated member name: the last value kept (RFC 8259 §4: unpredictable)
  readsForbidden?: boolean; // GET /plants/{id} (a document that declares it) answered 403 with an Error
}

export interface FakeOptions extends Mutations {
  tokens?: string[];
  /** Ids in the store when the server starts (an earlier run's plants), read as the server reads ids. */
  preStored?: Array<bigint | number | string>;
  /** A path prefix the API lives under, e.g. `/api/v1` (a deployed server behind a gateway). */
  prefix?: string;
  /** An API gateway before the server that lets through only requests with this header (else 403 {"message":"Forbidden"}, as AWS API Gateway answers). */
  gatewayHeader?: { name: string; value: string };
  /** The loopback port to listen on (default: one the system picks). */
  port?: number;
}

/** A switch: the boolean options (depthLimit takes a status). */
export type Mutation = {
  [K in keyof Mutations]-?: Mutations[K] extends boolean | undefined ? K : never;
}[keyof Mutations];
