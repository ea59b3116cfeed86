// A curl command that reproduces one exchange, with the target's token
// replaced by $PLANTSTORE_TOKEN (expanded by the shell of whoever runs it).
import type { Exchange } from './http.js';

export const TOKEN_VAR = '$PLANTSTORE_TOKEN';

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
function quoteAroundToken(arg: string, token: string): string {
  return arg
    .split(token)
    .map((piece) => (piece === '' ? '' : shellQuote(piece)))
    .join(`"${TOKEN_VAR}"`);
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

export function toCurl(ex: Exchange, token: string): string {
  const req = ex.request;
  const redact = token.length > 0;
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
    // The common case, "Authorization: <scheme> <token>", reads as such; a
    // token anywhere else in a header is still never written out.
    if (redact && name.toLowerCase() === 'authorization' && value.endsWith(` ${token}`) && !value.slice(0, -token.length).includes(token)) {
      parts.push('-H', quoteWithToken(line.slice(0, line.length - token.length)));
    } else {
      parts.push('-H', redact && arg.includes(token) ? quoteAroundToken(arg, token) : shellQuote(arg));
    }
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
