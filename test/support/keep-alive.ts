// The keep-alive setting of the test servers the harness runs against.
import type { Server } from 'node:http';

/**
 * Keeps idle keep-alive connections open until the server closes (each
 * test's close() ends them). Node's default closes a connection idle for
 * 5 s; the harness's client (undici) retires an idle connection itself 2 s
 * before the `Keep-Alive: timeout=5` hint, but only when its timers run. On
 * a loaded machine the harness's event loop is busy for longer than that
 * between two requests (drawing the cases after the diagnosis took 5.8 s),
 * so it sent the first check's request on a connection the server was
 * closing at that moment: "UND_ERR_SOCKET: other side closed", a verdict
 * that depended on the scheduler. With no idle timeout on the server's
 * side (and no hint), only the client closes an idle connection, and a
 * request is never sent on one it has closed.
 */
export function keepIdleConnectionsOpen<S extends Server>(server: S): S {
  server.keepAliveTimeout = 0;
  return server;
}
