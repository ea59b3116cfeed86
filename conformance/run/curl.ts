// A curl command that reproduces one exchange, with the target's token
// replaced by $PLANTSTORE_TOKEN (expanded by the shell of whoever runs it).
import type { Exchange } from '../checks/exchange.js';

import { splitAtToken } from '../redact/secrets.js';
import { FRAGMENT, TOKEN_VAR } from '../redact/shorten.js';

export { TOKEN_VAR };

/** POSIX single quoting: nothing inside is expanded. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Double quoting of `prefix` followed by the token variable, which alone is expanded. */
function quoteWithToken(prefix: string): string {
  return `"${prefix.replace(/[\\"$`]/g, (c) => `\\${c}`)}${TOKEN_VAR}"`;
}

/**
 * A header argument in which the token stands anywhere (a token with a
 * character added, say): single-quoted pieces with the variable between
 * them, which the shell joins into one word.
 */
function quoteAroundToken(pieces: string[]): string {
  return pieces.map((piece) => (piece === '' ? '' : shellQuote(piece))).join(`"${TOKEN_VAR}"`);
}

/** A header as a curl argument, the token as $PLANTSTORE_TOKEN where the request uses it (tokenPieces). */
function headerArgument(name: string, value: string, arg: string, token: string): string {
  const pieces = tokenPieces(name, value, token);
  if (pieces.length === 1) return shellQuote(arg);
  pieces[0] = `${name}: ${pieces[0]}`;
  // The common case, "Authorization: <scheme> <token>", reads as such.
  return pieces.length === 2 && pieces[1] === '' ? quoteWithToken(pieces[0]) : quoteAroundToken(pieces);
}

/**
 * A field value cut where the request uses the token: in the Authorization
 * field (after the scheme, bare, with white space around it), standing alone
 * when it is short; in another field only a token of FRAGMENT characters or
 * more (a short one is in every word: `--token t` made
 * `-H 'con'"$PLANTSTORE_TOKEN"'en'…`).
 */
function tokenPieces(name: string, value: string, token: string): string[] {
  if (token === '') return [value];
  if (name.toLowerCase() === 'authorization') return splitAtToken(value, token);
  return token.length < FRAGMENT ? [value] : value.split(token);
}

/** A field value with the token as $PLANTSTORE_TOKEN where the request uses it. */
export function tokenInField(name: string, value: string, token: string): string {
  return tokenPieces(name, value, token).join(TOKEN_VAR);
}

/** Bytes that survive a single-quoted shell argument and a terminal unchanged. */
function printable(buf: Buffer): boolean {
  const text = buf.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(buf)) return false; // not UTF-8
  // No control characters (the shell keeps them, but a terminal or a copy-paste does not).
  return !/[\u0000-\u001f\u007f]/.test(text);
}

/** printf's format for arbitrary bytes: octal escapes for anything not plain printable ASCII. */
function printfFormat(buf: Buffer): string {
  let out = '';
  for (const byte of buf) {
    const c = String.fromCharCode(byte);
    if (byte === 0x25) out += '%%';
    else if (byte === 0x5c) out += '\\\\';
    else if (byte >= 0x20 && byte < 0x7f) out += c;
    else out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return out;
}

export interface ReproduceOptions {
  /** The request was sent at the same moment as this many identical ones (this one included): the line sends as many at once. */
  sentAtOnceWith?: number;
}

/**
 * A command that sends what the harness sent: a curl line, or, where curl
 * cannot send it exactly (a body in several chunks: curl picks its own chunk
 * boundaries), a `node -e` line that does.
 */
export function toCurl(ex: Exchange, token: string, options: ReproduceOptions = {}): string {
  const line =
    ex.request.chunks !== undefined && ex.request.chunks.length > 1 && ex.request.authorizationShell === undefined
      ? toNodeChunked(ex, token)
      : curlLine(ex, token);
  const n = options.sentAtOnceWith ?? 1;
  // The shell starts them together and waits for every answer.
  return n > 1 ? `for i in $(seq ${n}); do ${line} & done; wait` : line;
}

/**
 * A chunked body sent chunk by chunk, as the harness did (each piece its
 * own chunk, a short pause between), by Node's HTTP client, printing the
 * answer as `curl -i` does. The token stays out of the line: the headers
 * say $PLANTSTORE_TOKEN, which the script replaces from the environment.
 */
function toNodeChunked(ex: Exchange, token: string): string {
  const req = ex.request;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name] = tokenInField(name, value, token);
  const script = [
    'const u=new URL(process.argv[1]),h=JSON.parse(process.argv[2]);',
    'for(const k in h)h[k]=h[k].split("$PLANTSTORE_TOKEN").join(process.env.PLANTSTORE_TOKEN??"");',
    `const r=require(u.protocol.slice(0,-1)).request(u,{method:${JSON.stringify(req.method)},headers:h},s=>{`,
    'console.log(`HTTP/${s.httpVersion} ${s.statusCode} ${s.statusMessage}`);',
    'for(let i=0;i<s.rawHeaders.length;i+=2)console.log(`${s.rawHeaders[i]}: ${s.rawHeaders[i+1]}`);',
    'console.log();s.pipe(process.stdout)});',
    '(async()=>{for(const c of JSON.parse(process.argv[3])){r.write(Buffer.from(c,"base64"));await new Promise(f=>setTimeout(f,2))}r.end()})()',
  ].join('');
  const chunks = JSON.stringify(req.chunks!.map((c) => c.toString('base64')));
  return `node -e ${shellQuote(script)} ${shellQuote(ex.url)} ${shellQuote(JSON.stringify(headers))} ${shellQuote(chunks)}`;
}

function curlLine(ex: Exchange, token: string): string {
  const req = ex.request;
  const parts = ['curl', '-sS', '-i', '-X', req.method, shellQuote(ex.url)];
  for (const [name, value] of Object.entries(req.headers)) {
    const line = `${name}: ${value}`;
    // curl drops a header given as "Name:" (empty value), so an empty value is sent as "Name;".
    const arg = value === '' ? `${name};` : line;
    if (name.toLowerCase() === 'authorization' && req.authorizationShell !== undefined) {
      // A credential derived from the token (a near miss): rebuilt from $PLANTSTORE_TOKEN by the shell.
      parts.push('-H', `"${name}: "${req.authorizationShell}`);
      continue;
    }
    parts.push('-H', headerArgument(name, value, arg, token));
  }
  // undici sets Transfer-Encoding itself for a body of unknown length; curl needs to be told.
  if (req.chunks !== undefined) parts.push('-H', shellQuote('Transfer-Encoding: chunked'));
  const hasContentType = Object.keys(req.headers).some((h) => h.toLowerCase() === 'content-type');
  if (req.body !== undefined) {
    // Without this, curl would add its own form content type to --data-binary.
    if (!hasContentType) parts.push('-H', shellQuote('Content-Type:'));
    const buf = typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : req.body;
    // `@` at the start would make curl read a file; odd bytes go through printf.
    if (printable(buf) && !buf.toString('utf8').startsWith('@')) {
      parts.push('--data-binary', shellQuote(buf.toString('utf8')));
    } else {
      return `printf ${shellQuote(printfFormat(buf))} | ${parts.join(' ')} --data-binary @-`;
    }
  }
  return parts.join(' ');
}
