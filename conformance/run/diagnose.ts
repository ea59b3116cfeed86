// Diagnosis before judging: before the catalog runs against a target, find
// out whether the run can mean anything. A new user's first run is usually
// misconfigured (no token, the wrong one, the wrong base URL, https:// for
// an http:// port, a server not up yet), and then every check would fail and
// blame the server for the user's mistake. Each of these gets one line that
// names the cause, and one that says what to set; the runner then runs no
// check (they are `error`, "not run: …") and the CLI exits 2.
//
// What it sends, in order, and nothing else:
// 1. the preflight: the operation without credentials or body, which a
//    conforming server refuses (401) and which creates nothing;
// 2. a valid create with the token (one plant, with an id of its own
//    allocator: the checks' ids and state are untouched);
// 3. only when both answered 404: the operation's path with GET.
// Where an exchange got no answer, two transport probes (probe.ts) tell a
// TLS/plain-HTTP mismatch from a server that is down.
import type { CheckContext } from '../checks/types.js';
import { createRequest, validPlant } from '../checks/requests.js';
import { throughProxy } from './proxy.js';
import { formatMs } from './http.js';
import type { Exchange, RequestSpec } from '../checks/exchange.js';
import { IdAllocator } from '../cases/ids.js';
import { speaksPlainHttp, speaksTls } from './probe.js';
import { NO_SECRETS, shorten } from '../redact/shorten.js';
import type { OperationModel, SpecModel } from '../model/spec-model.js';
import { operationCall } from '../checks/op-requests.js';
import type { Target } from '../model/target.js';
import { RuledOut } from '../model/ruled-out.js';
import { defaultAlternative } from '../checks/credentials.js';
import { credentialKind } from '../model/security.js';
import { credentialDiagnosis } from './diagnose-credentials.js';

export type DiagnosisKind =
  | 'unreachable'
  | 'timeout'
  | 'tls-mismatch'
  | 'certificate'
  | 'not-http'
  | 'no-answer'
  | 'rate-limited'
  | 'no-plant-store'
  | 'gateway'
  | 'token-refused'
  | 'no-token'
  | 'no-credential'
  | 'credential-refused';

/** Why a run against a target cannot mean anything. */
export interface Diagnosis {
  kind: DiagnosisKind;
  /** What is wrong, in one line, in HTTP terms. */
  problem: string;
  /** What the harness saw that shows it, when the problem does not say. */
  evidence?: string;
  /** What to set or do about it. */
  fix: string;
}

type Send = (spec: RequestSpec) => Promise<Exchange>;

/**
 * The operation the diagnosis sends to: the create operation, or in a
 * document without one, the first that requires credentials (one without
 * path parameters first: it names no plant that may not be there), else the
 * first the document declares.
 */
export function probeOperation(model: SpecModel): OperationModel {
  if (model.create) return model.create;
  const secured = model.operations.filter((op) => !op.open);
  return (
    secured.find((op) => !op.path.includes('{')) ??
    secured[0] ??
    model.operations.find((op) => !op.path.includes('{')) ??
    model.operations[0]!
  );
}

/** The preflight: the operation without credentials of any scheme (the -H headers that carry one dropped) or body, which a conforming server refuses (401) and which creates nothing. */
export function preflight(model: SpecModel): RequestSpec {
  const op = probeOperation(model);
  return { method: op.method, path: op.path, headers: {}, note: 'preflight' };
}

/** A valid request with the token: a create (one plant, with an id of the diagnosis's own allocator), or a request the document describes. */
function validRequest(ctx: CheckContext, op: OperationModel): RequestSpec {
  const note = `diagnosis: a valid ${op.pointer === ctx.model.create?.pointer ? 'create' : `${op.method} ${op.path}`} with the token`;
  return op.pointer === ctx.model.create?.pointer
    ? createRequest(ctx, validPlant(ctx), { note })
    : operationCall(ctx, op, { note });
}

function hostAndPort(url: string): { host: string; port: number; origin: string } {
  const u = new URL(url);
  const port = u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port, origin: u.host };
}

/** TLS errors of a client that speaks TLS to a server that does not (OpenSSL's codes as Node reports them). */
const TLS_HANDSHAKE = /^(ERR_SSL_|EPROTO$)/;
/** Certificate errors: the server speaks TLS with a certificate the harness does not trust. */
const CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS_CERT_ALTNAME_INVALID/;

/** Why an exchange of the diagnosis got no answer, as a diagnosis. */
async function noAnswer(ex: Exchange, target: Target, timeoutMs: number): Promise<Diagnosis> {
  const { host, port, origin } = hostAndPort(target.url);
  const https = target.url.startsWith('https:');
  const code = ex.code ?? '';
  const probe = !throughProxy();
  if (ex.failure === 'unreachable') {
    const why =
      code === 'ECONNREFUSED'
        ? `nothing listens on ${origin} (connection refused)`
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? `the host name ${host} does not resolve (${code})`
          : code === 'UND_ERR_CONNECT_TIMEOUT'
            ? `connecting to ${origin} timed out`
            : `${origin} cannot be reached (${code || ex.error})`;
    return {
      kind: 'unreachable',
      problem: `cannot connect: ${why}`,
      fix: 'Start the server first, or check the host and port of the URL; --wait-for SECONDS waits for a server that is still starting.',
    };
  }
  if (https && TLS_HANDSHAKE.test(code) && !CERTIFICATE.test(code)) {
    if (probe && (await speaksPlainHttp(host, port, timeoutMs))) {
      return {
        kind: 'tls-mismatch',
        problem: `the URL says https:// but ${origin} speaks plain HTTP`,
        fix: `Use ${target.url.replace(/^https:/, 'http:')}, or the server's TLS port.`,
      };
    }
    return {
      kind: 'tls-mismatch',
      problem: `the TLS handshake with ${origin} failed (${code}): it does not seem to speak TLS`,
      fix: 'Check the scheme and port of the URL: http:// for a plain HTTP port.',
    };
  }
  if (https && CERTIFICATE.test(code)) {
    const reason = /\(([A-Z_]+): ([^)]*)\)/.exec(ex.error ?? '')?.[2] ?? code;
    return {
      kind: 'certificate',
      problem: `the certificate of ${origin} is not trusted (${reason})`,
      fix: 'Name the certificate of its CA (PEM) in NODE_EXTRA_CA_CERTS; the harness never turns certificate checks off.',
    };
  }
  if (
    !https &&
    (ex.failure === 'closed' || ex.failure === 'not-http') &&
    probe &&
    (await speaksTls(host, port, timeoutMs))
  ) {
    return {
      kind: 'tls-mismatch',
      problem: `the URL says http:// but ${origin} speaks TLS`,
      fix: `Use ${target.url.replace(/^http:/, 'https:')}.`,
    };
  }
  if (ex.failure === 'timeout') {
    return {
      kind: 'timeout',
      problem: `no answer from ${origin} within ${formatMs(timeoutMs)}`,
      evidence: `The preflight (${ex.request.method} without credentials): ${ex.error}.`,
      fix: "Check that the port is the HTTP server's; a slow server needs a longer --timeout (milliseconds).",
    };
  }
  const evidence = `${ex.request.note === 'preflight' ? `The preflight (${ex.request.method} without credentials)` : 'A valid create'}: ${ex.error}.`;
  if (ex.failure === 'not-http')
    return { kind: 'not-http', problem: `${origin} does not speak HTTP`, evidence, fix: 'Check the port of the URL.' };
  if (ex.failure === 'rate-limited') {
    return {
      kind: 'rate-limited',
      problem: 'the target, or a gateway before it, keeps asking to come back later',
      evidence,
      fix: 'Lower the request rate with --rate-limit N (requests per second), or run when the gateway allows more.',
    };
  }
  return {
    kind: 'no-answer',
    problem: `no usable answer from ${origin}`,
    evidence,
    fix: 'Check that the URL points at the HTTP server of the Plant Store API.',
  };
}

/**
 * An answer in a few words: the status, then the challenge and what the
 * refusal says when there are: the Error body's message, or a problem's
 * title and detail (RFC 9457 §3.1.3, §3.1.4), in whatever JSON media type.
 */
function gist(ex: Exchange): string {
  const r = ex.response!;
  const details: string[] = [];
  if (r.headers['www-authenticate'] !== undefined) details.push(`WWW-Authenticate: ${r.headers['www-authenticate']}`);
  try {
    const body = JSON.parse(r.bodyText) as { message?: unknown; title?: unknown; detail?: unknown };
    const said = [body?.message, body?.title, body?.detail].filter((x): x is string => typeof x === 'string');
    if (said.length > 0) details.push(JSON.stringify(shorten(said.join(': '), 100, ex.redact ?? NO_SECRETS)));
  } catch {
    // Not JSON: the status says enough.
  }
  return `${r.status}${details.length > 0 ? ` (${details.join('; ')})` : ''}`;
}

/**
 * Whether a run against `target` can mean anything: undefined when it can,
 * else why not. `send` sends to the target as the checks' requests go (its
 * headers, the gateway rules). `exchanges` receives every exchange sent.
 */
export async function diagnose(
  model: SpecModel,
  target: Target,
  send: Send,
  timeoutMs: number,
  ids = new IdAllocator(),
): Promise<{ diagnosis?: Diagnosis; preflight: Exchange }> {
  const op = probeOperation(model);
  const first = await send(preflight(model));
  if (!first.response) return { diagnosis: await noAnswer(first, target, timeoutMs), preflight: first };
  // An nginx TLS port answers a plain request with this 400 page.
  if (first.response.status === 400 && /plain HTTP request was sent to HTTPS port/i.test(first.response.bodyText)) {
    const { origin } = hostAndPort(target.url);
    return {
      diagnosis: {
        kind: 'tls-mismatch',
        problem: `the URL says http:// but ${origin} is a TLS port (it answered 400 "The plain HTTP request was sent to HTTPS port")`,
        fix: `Use ${target.url.replace(/^http:/, 'https:')}.`,
      },
      preflight: first,
    };
  }

  // A valid request with the token, with ids of the run's (a scope of its own: what the checks send does not change).
  const ctx: CheckContext = {
    model,
    target,
    ids,
    seed: ids.seed,
    cases: 0,
    auth: () => `Bearer ${target.token}`,
    inferences: new Set(),
  };
  let valid: RequestSpec;
  try {
    valid = validRequest(ctx, op);
  } catch (err) {
    // The document allows no valid request the harness can make: nothing to diagnose by; every check says why it skips.
    if (err instanceof RuledOut) return { preflight: first };
    throw err;
  }
  const create = await send(valid);
  if (!create.response) return { diagnosis: await noAnswer(create, target, timeoutMs), preflight: first };
  const status = create.response.status;
  const request = `A valid ${op.method} ${op.path}`;
  const alternative = defaultAlternative(target, op) ?? [];
  if ((status === 401 || status === 403) && alternative.some((s) => credentialKind(s) !== 'bearer')) {
    // An API key, HTTP Basic: the line names the scheme and what to set, not a gateway or a token.
    return { diagnosis: credentialDiagnosis(target, op, alternative, gist(create)), preflight: first };
  }
  if (status === 401 || status === 403) {
    // A conforming server's 401 carries a Bearer challenge (RFC 6750 §3). The same refusal
    // without one, with and without credentials, comes from before the token is looked at.
    const bearer = /(^|,)\s*bearer(\s|,|$)/i.test(create.response.headers['www-authenticate'] ?? '');
    if (!bearer && first.response.status === status) {
      const token =
        target.tokenFrom === undefined
          ? 'set PLANTSTORE_TOKEN (or --token) to a token the target accepts'
          : `give ${target.tokenFrom} a token this target accepts`;
      return {
        diagnosis: {
          kind: 'gateway',
          problem: `every request is refused with ${status} before the token is looked at`,
          evidence: `${op.method} ${op.path} without credentials, and with the token and a valid body, were both answered ${gist(create)}, without a Bearer challenge in WWW-Authenticate.`,
          fix: `A gateway before the target may need a header of its own: give it with -H "Name: value" (an API key, say). Otherwise ${token}.`,
        },
        preflight: first,
      };
    }
    if (target.tokenFrom === undefined) {
      return {
        diagnosis: {
          kind: 'no-token',
          problem: 'no token was given, and the target requires one',
          evidence: `${request} with a placeholder token was answered ${gist(create)}.`,
          fix: 'Set PLANTSTORE_TOKEN (or --token, or token in the configuration file) to a token the target accepts.',
        },
        preflight: first,
      };
    }
    return {
      diagnosis: {
        kind: 'token-refused',
        problem: `the token from ${target.tokenFrom} was refused`,
        evidence: `${request} with it was answered ${gist(create)}.`,
        fix: `Give ${target.tokenFrom} a token this target accepts${status === 403 && op === model.create ? ' and that may create plants' : ''}.`,
      },
      preflight: first,
    };
  }
  if (status === 404 && first.response.status === 404) {
    const get = await send({
      method: 'GET',
      path: op.path,
      headers: {},
      note: 'diagnosis: is anything at the operation path?',
    });
    if (get.response?.status === 404) {
      const url = new URL(target.url);
      const prefix = url.pathname.replace(/\/+$/, '');
      const endsWithPath = prefix !== '' && (prefix === op.path || prefix.endsWith(op.path));
      const fix = endsWithPath
        ? `The base URL already ends with ${op.path}, which the harness appends itself: use ${target.url.slice(0, target.url.length - op.path.length) || url.origin}.`
        : `Check the base URL: the harness sends ${op.method} {base URL}${op.path}, so a path prefix (e.g. /api/v1) belongs in the base URL.`;
      return {
        diagnosis: {
          kind: 'no-plant-store',
          problem: 'no Plant Store at this base URL',
          evidence: `${target.url}${op.path} answers 404 to ${op.method}, with and without credentials, and to GET.`,
          fix,
        },
        preflight: first,
      };
    }
  }
  return { preflight: first };
}

/** Statuses of a gateway whose service is not up yet: waited through by --wait-for. */
const NOT_UP_YET = [502, 503, 504];

/**
 * --wait-for: sends the preflight until the target answers at all (any HTTP
 * answer but a gateway's 502, 503 or 504) or `waitMs` has passed, a try
 * every half second. Returns whether it answered, and after how long.
 */
export async function waitForAnswer(
  model: SpecModel,
  target: Target,
  send: Send,
  waitMs: number,
  timeoutMs: number,
): Promise<{ answered: boolean; afterMs: number }> {
  const start = performance.now();
  const { host, port } = hostAndPort(target.url);
  for (;;) {
    const ex = await send(preflight(model));
    const elapsed = performance.now() - start;
    if (ex.response && !NOT_UP_YET.includes(ex.response.status)) return { answered: true, afterMs: elapsed };
    // Something answers, just not in HTTP: waiting will not change that (the diagnosis says what it is).
    const notYet =
      ex.response !== undefined ||
      ex.failure === 'unreachable' ||
      ex.failure === 'timeout' ||
      (ex.failure === 'closed' && !TLS_HANDSHAKE.test(ex.code ?? ''));
    if (!notYet) return { answered: true, afterMs: elapsed };
    if (
      ex.failure === 'closed' &&
      target.url.startsWith('http:') &&
      !throughProxy() &&
      (await speaksTls(host, port, timeoutMs))
    )
      return { answered: true, afterMs: elapsed };
    if (elapsed >= waitMs) return { answered: false, afterMs: elapsed };
    await new Promise((resolve) => setTimeout(resolve, Math.min(500, waitMs - elapsed)));
  }
}
