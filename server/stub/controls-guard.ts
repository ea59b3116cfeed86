// What every request to the stub's controls passes before its route runs,
// in this order:
//
//   Host           while the controls have no token, only a loopback name
//                  (localhost, *.localhost), an IP address, or a name of
//                  PLANTSTORE_ALLOWED_HOSTS: a page on another name that
//                  DNS rebinding points at 127.0.0.1 would otherwise read
//                  the journal as a same-origin page (403, 40302)
//   credentials    the admin token, when one is set (401)
//   content type   a POST or PUT says Content-Type: application/json, even
//                  with no body (415): a browser sends no other type cross-
//                  origin without a CORS preflight, which the stub never
//                  grants, so no page can reset the store or schedule faults
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { createAuthenticator } from '../security/auth.js';
import { isJsonMediaType } from '../http/body.js';
import { ApiError } from '../http/errors.js';

export interface ControlsGuardOptions {
  /** When set, every control requires `Authorization: Bearer <token>`, and any Host is answered. */
  token: string | undefined;
  /** Host names answered besides the loopback names and IP addresses while there is no token; '*' answers any. */
  allowedHosts: readonly string[] | '*';
}

export function controlsGuard({
  token,
  allowedHosts,
}: ControlsGuardOptions): (request: FastifyRequest) => Promise<void> {
  const guard = token === undefined ? undefined : createAuthenticator([token]);
  const named = allowedHosts === '*' ? undefined : new Set(allowedHosts.map((host) => host.toLowerCase()));
  return async (request) => {
    if (guard === undefined && named !== undefined && !isAllowedHost(request.headers.host, named))
      throw new ApiError('CONTROLS_HOST_REFUSED');
    guard?.check(request.headers.authorization);
    if ((request.method === 'POST' || request.method === 'PUT') && !isJsonMediaType(request.headers['content-type']))
      throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
  };
}

/**
 * A Host (name or address, with or without a port) that DNS rebinding cannot
 * stand for: a loopback name (RFC 6761 §6.3: localhost and *.localhost
 * resolve to loopback only), an IP address (no name to rebind), or a name
 * the configuration allows. A request without Host (HTTP/1.0) names no host
 * and is no browser's.
 */
export function isAllowedHost(host: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (host === undefined) return true;
  const name = hostName(host).toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0 || allowed.has(name);
}

/** The host of a Host header without its port: `[::1]:4010` is `::1`, `example.com:80` is `example.com`. */
function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']') === -1 ? undefined : host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}
