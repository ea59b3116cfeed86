// Two bounded transport probes for the diagnosis (diagnose.ts), when an
// exchange got no answer: does this host and port speak TLS, or plain HTTP?
// They tell a scheme mistake (https:// against an HTTP port, http://
// against a TLS port) from a server that is down or broken. Neither sends a
// request to the API: a TLS handshake, or `HEAD / HTTP/1.1` read up to its
// status line. Neither is used behind a proxy (the harness then reaches the
// target only through it).
import { connect as connectTcp } from 'node:net';
import { connect as connectTls } from 'node:tls';

/** True when a TLS handshake with host:port completes (the certificate is not judged: only whether it speaks TLS). */
export function speaksTls(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTls({
      host,
      port,
      servername: /^[\d.]+$|:/.test(host) ? undefined : host,
      rejectUnauthorized: false,
      timeout: timeoutMs,
    });
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/** True when host:port answers a plain `HEAD / HTTP/1.1` with an HTTP status line. */
export function speaksPlainHttp(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp({ host, port, timeout: timeoutMs });
    let received = '';
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.once('connect', () =>
      socket.write(
        `HEAD / HTTP/1.1\r\nHost: ${host.includes(':') ? `[${host}]` : host}:${port}\r\nConnection: close\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.length >= 5) done(received.startsWith('HTTP/'));
    });
    socket.once('end', () => done(received.startsWith('HTTP/')));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}
