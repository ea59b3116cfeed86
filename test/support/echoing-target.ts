// A target on 127.0.0.1 that echoes a secret at a chosen place of its
// answers, and a search for what is left of the secret in a text: for the
// tests that no fragment of a secret survives the harness's shortening of
// what a target sent (test/robustness/secret-fragments.test.ts,
// test/robustness/redaction.test.ts, test/action/action.test.ts), and the
// secrets those tests echo.
//
// The base URL says what it does: {url}/{kind}/{form}/{offset}, the
// operation's path after it. The secret stands `offset` characters into
// - kind `answer`: the body of a 400 to every request (a report shows a body
//   cut at 300 characters);
// - kind `refuse`: the message of an Error body of a 401 with a Bearer
//   challenge to every request (the diagnosis "the token was refused" shows
//   the message cut at 100);
// - kind `garbage`: bytes that are not HTTP, sent back instead of an answer
//   (the error shows what was received, cut at 60).
// Before it, prose (which must stay as it is); after it, more prose. The
// form: `plain`, `json` (JSON-escaped, "/" as "\/") or `percent`
// (percent-encoded).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepIdleConnectionsOpen } from './keep-alive.js';

export type EchoKind = 'answer' | 'refuse' | 'garbage';
export type EchoForm = 'plain' | 'json' | 'percent';
export const ECHO_FORMS: EchoForm[] = ['plain', 'json', 'percent'];

/** A 40-character token with every b64token character class: "/" (JSON-escaped as "\\/"), "+" and "=" (percent-encoded), "." "~" "-" "_". */
export const LONG_TOKEN = 'Zq7/Kp+Rw9.Xt~Lm-Nb_Vc3/Hd8+Jf2.Gs5~Ty6=';
/** The value of a -H header whose name looks secret. */
export const API_KEY = 'k3y/Vx+Pq8.Wm~Rt-Ls_Nz4/Bg7+Cd2.Fh9~Jy5=';

/** Prose around the secret; no run of 8 of its characters is part of a secret the tests use. */
export const PROSE = 'the plant is not valid; ';

/** The secret as a target writes it in the given form. */
export function echoed(secret: string, form: EchoForm): string {
  return form === 'json'
    ? JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/')
    : form === 'percent'
      ? encodeURIComponent(secret)
      : secret;
}

/** `length` characters of prose. */
export function prose(length: number): string {
  return PROSE.repeat(Math.ceil(length / PROSE.length)).slice(0, length);
}

export interface EchoingTarget {
  /** The base URL of a kind, form and offset. */
  url(kind: EchoKind, form: EchoForm, offset: number): string;
  close(): Promise<void>;
}

export async function startEchoingTarget(secret: string): Promise<EchoingTarget> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      const [, kind, form, offset] = (request.url ?? '').split('/');
      const text = `${prose(Number(offset))}${echoed(secret, form as EchoForm)} ${PROSE}`;
      if (kind === 'garbage') {
        // Not HTTP: the socket gets the text as it is, and is closed.
        response.socket?.end(text);
      } else if (kind === 'refuse') {
        const body = `{"error":40101,"message":"${text}"}`;
        response.writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': 'Bearer realm="plants", error="invalid_token"',
        });
        response.end(body);
      } else {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(text);
      }
    });
  });
  keepIdleConnectionsOpen(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (kind, form, offset) => `http://127.0.0.1:${port}/${kind}/${form}/${offset}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Shortest run of a secret's characters that counts as giving part of it away. */
export const FRAGMENT_LENGTH = 8;
/** The step fragmentsIn reads a text by: half a fragment. */
const QUARTER = FRAGMENT_LENGTH / 2;

/** The windows of a secret, by their lower case, and their runs of 4 characters: the same for every text searched. */
const windowsBySecret = new Map<string, { windows: Map<string, string[]>; quarters: Set<string> }>();

function windowsOf(secret: string): { windows: Map<string, string[]>; quarters: Set<string> } {
  const known = windowsBySecret.get(secret);
  if (known) return known;
  const forms = [
    ...ECHO_FORMS.map((form) => echoed(secret, form)),
    JSON.stringify(echoed(secret, 'json')).slice(1, -1),
  ];
  // Every window of every form, by its lower case, and every run of 4 characters of one. A window at offset p
  // holds the 4 characters at the first multiple of 4 from p: the text is looked into only around the
  // multiples of 4 whose 4 characters are part of a window (it was searched once per window: hundreds of
  // passes over reports of megabytes).
  const windows = new Map<string, string[]>();
  const quarters = new Set<string>();
  for (const form of forms)
    for (let i = 0; i + FRAGMENT_LENGTH <= form.length; i++) {
      const window = form.slice(i, i + FRAGMENT_LENGTH);
      const lower = window.toLowerCase();
      windows.set(lower, [...(windows.get(lower) ?? []), window]);
      for (let j = 0; j + QUARTER <= FRAGMENT_LENGTH; j++) quarters.add(lower.slice(j, j + QUARTER));
    }
  const made = { windows, quarters };
  windowsBySecret.set(secret, made);
  return made;
}

/**
 * Every run of FRAGMENT_LENGTH characters of `secret`, in any of the forms a
 * target writes it (and the JSON report's escaping of those), found in
 * `text`, letter case aside: what a report must never show.
 */
export function fragmentsIn(text: string, secret: string): string[] {
  const { windows, quarters } = windowsOf(secret);
  const haystack = text.toLowerCase();
  const found = new Set<string>();
  for (let q = 0; q + QUARTER <= haystack.length; q += QUARTER) {
    if (!quarters.has(haystack.slice(q, q + QUARTER))) continue;
    for (let p = Math.max(0, q - QUARTER + 1); p <= q && p + FRAGMENT_LENGTH <= haystack.length; p++)
      for (const window of windows.get(haystack.slice(p, p + FRAGMENT_LENGTH)) ?? []) found.add(window);
  }
  return [...found];
}
