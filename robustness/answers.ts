// What every answer of the server must look like, whatever was asked: one of
// the statuses docs/server.md documents, JSON, and either the specification's
// Error record or a Plant, with nothing of the server's insides in it.
// Shared by the fuzz tests and the long fuzz script.

/** The statuses of the behaviour table (docs/server.md), without 500 (never expected). */
export const DOCUMENTED_STATUSES = [200, 400, 401, 404, 405, 408, 413, 415, 431, 507] as const;

/** GET /__health's 200 body from a server on the in-memory store (the fuzzed servers all are). */
export const HEALTHY_ANSWER = '{"status":"ok","store":"memory"}';

/** What an answer body must never contain: stack frames, file paths, module names, error classes, internal codes. */
export const INTERNALS = [
  /\bat [^\n]*:\d+:\d+/, // a stack frame "at fn (file.js:1:2)"
  /\.(?:js|ts|mjs|cjs):\d+/,
  /node_modules/,
  /\/(?:dist|server|src|home|usr|tmp|work)\//,
  /[A-Za-z]:\\/,
  /\b(?:Type|Range|Syntax|Reference)?Error: /,
  /\b(?:FST|HPE|ERR)_[A-Z_]+/,
  /\bundefined\b|\[object Object\]|\bNaN\b/,
];

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface AnswerExpectation {
  /** Statuses acceptable for this request; every one of them must be documented. */
  statuses: ReadonlySet<number>;
  /** For a 200: the Plant the server must echo (name and tag sent). */
  plant?: { name: string; tag?: string };
  /** The request went to GET /__health, whose 200 is HEALTHY_ANSWER rather than a Plant. */
  health?: boolean;
  /**
   * The request was HEAD, answered through app.inject(): RFC 9110 §9.3.2,
   * the answer has no content on the wire, where Node's HTTP server drops
   * what is written for a HEAD (the socket fuzz sees the wire). An injected
   * answer may still carry that text (light-my-request before 6.8 keeps it),
   * so it is held to RFC 9110 §8.6: a Content-Length is the length the same
   * answer to GET would have.
   */
  head?: boolean;
}

/** The problems with one answer; [] when it is acceptable. */
export function answerProblems(answer: Answer, expectation?: AnswerExpectation): string[] {
  const problems: string[] = [];
  const { status, headers, body } = answer;
  if (!(DOCUMENTED_STATUSES as readonly number[]).includes(status)) problems.push(`status ${status} is not documented`);
  if (expectation && !expectation.statuses.has(status)) {
    problems.push(`status ${status}, expected one of ${[...expectation.statuses].join(', ')}`);
  }
  const contentType = String(headers['content-type'] ?? '');
  if (!/^application\/json\b/i.test(contentType))
    problems.push(`content-type ${JSON.stringify(contentType)} is not application/json`);
  // A 200 echoes the client's own text, which may look like anything; it is
  // checked to be exactly the Plant sent instead.
  if (status !== 200) {
    for (const pattern of INTERNALS) {
      if (pattern.test(body)) problems.push(`body shows internals (${pattern}): ${body.slice(0, 200)}`);
    }
  }
  if (expectation?.head) {
    const length = headers['content-length'];
    if (body !== '' && length !== undefined && Number(length) !== Buffer.byteLength(body)) {
      problems.push(
        `HEAD answer's Content-Length ${String(length)} is not the ${Buffer.byteLength(body)} bytes of its GET answer`,
      );
    }
    return problems;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    problems.push(`body is not JSON: ${JSON.stringify(body.slice(0, 200))}`);
    return problems;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    problems.push(`body is not a JSON object: ${body.slice(0, 200)}`);
    return problems;
  }
  const record = parsed as Record<string, unknown>;
  const keys = Object.keys(record).sort().join(',');
  if (status === 200 && expectation?.health) {
    if (body !== HEALTHY_ANSWER) problems.push(`health answer is ${body.slice(0, 200)}`);
  } else if (status === 200) {
    if (keys !== 'name' && keys !== 'name,tag') problems.push(`200 body is not a Plant: ${body.slice(0, 200)}`);
    if (typeof record.name !== 'string' || ('tag' in record && typeof record.tag !== 'string')) {
      problems.push(`200 body has wrong field types: ${body.slice(0, 200)}`);
    }
    const plant = expectation?.plant;
    if (plant && (record.name !== plant.name || record.tag !== plant.tag)) {
      problems.push(
        `200 body ${body.slice(0, 200)} does not echo the plant sent ${JSON.stringify(plant).slice(0, 200)}`,
      );
    }
  } else {
    if (keys !== 'error,message') problems.push(`${status} body is not an Error record: ${body.slice(0, 200)}`);
    const error = record.error;
    if (typeof error !== 'number' || !Number.isInteger(error) || error < -(2 ** 31) || error >= 2 ** 31) {
      problems.push(`error is not an int32: ${body.slice(0, 200)}`);
    } else if (Math.floor(error / 100) !== status) {
      problems.push(`error ${error} does not belong to status ${status}`);
    }
    if (typeof record.message !== 'string' || record.message === '')
      problems.push(`message is not a sentence: ${body.slice(0, 200)}`);
  }
  if (status === 401 && !/^Bearer realm="plantstore"/.test(String(headers['www-authenticate'] ?? ''))) {
    problems.push('401 without WWW-Authenticate: Bearer realm="plantstore"');
  }
  if (status === 405 && headers.allow !== 'POST') problems.push(`405 with Allow ${String(headers.allow)}`);
  return problems;
}

/** Counts answers per status, for the scripts' reports. */
export class StatusTally {
  readonly counts = new Map<string, number>();
  add(key: number | string): void {
    const name = String(key);
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }
  get total(): number {
    let sum = 0;
    for (const count of this.counts.values()) sum += count;
    return sum;
  }
  toString(): string {
    return [...this.counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
  }
}
