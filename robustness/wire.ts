// Raw HTTP/1.1 over a TCP socket, for what app.inject() cannot express:
// Content-Length mismatches, malformed request lines, pipelining, huge headers.
import { connect } from 'node:net';

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface WireExchange {
  /** Final responses in order (1xx interim responses are left out). */
  responses: WireResponse[];
  /** Bytes after the last complete response: a torn answer when not empty. */
  leftover: Buffer;
  /** The server closed the connection before the deadline. */
  closedByServer: boolean;
  /** The connection ended with a reset rather than a close. */
  reset: boolean;
}

/**
 * Writes `bytes` to 127.0.0.1:port, half-closes when `end` is set, and reads
 * until the server closes or `deadlineMs` passes (then the socket is destroyed).
 */
export function exchange(
  port: number,
  bytes: Buffer,
  options: { end?: boolean; deadlineMs?: number } = {},
): Promise<WireExchange> {
  const { end = true, deadlineMs = 5000 } = options;
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    let reset = false;
    let closedByServer = false;
    const timer = setTimeout(() => socket.destroy(), deadlineMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // Writing after the server closed (EPIPE) is the client's problem, not a drop.
      if (error.code === 'ECONNRESET') reset = true;
    });
    socket.on('end', () => {
      closedByServer = true;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const { responses, leftover } = parseResponses(Buffer.concat(chunks));
      resolve({ responses, leftover, closedByServer: closedByServer || reset, reset });
    });
    socket.write(bytes, () => {
      if (end) socket.end();
    });
  });
}

/** Splits a byte stream into HTTP/1.1 responses framed by Content-Length. */
export function parseResponses(data: Buffer): { responses: WireResponse[]; leftover: Buffer } {
  const responses: WireResponse[] = [];
  let offset = 0;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', offset);
    if (headEnd === -1) break;
    const head = data.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const statusLine = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(head[0] ?? '');
    if (!statusLine) break;
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(statusLine[1]);
    if (status >= 100 && status < 200) {
      offset = headEnd + 4;
      continue;
    }
    // Every answer of the server is framed by Content-Length; chunked framing would be a finding.
    const length = headers['content-length'] === undefined ? NaN : Number(headers['content-length']);
    if (!Number.isSafeInteger(length) || headEnd + 4 + length > data.length) break;
    responses.push({ status, headers, body: data.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8') });
    offset = headEnd + 4 + length;
  }
  return { responses, leftover: data.subarray(offset) };
}

/** One request in wire form. */
export function rawRequest(
  requestLine: string,
  headers: Array<[string, string]>,
  body: Buffer = Buffer.alloc(0),
): Buffer {
  const head = `${requestLine}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}
