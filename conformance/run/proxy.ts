// How the harness reaches a target: directly, or through the proxy the
// environment names (HTTP_PROXY, HTTPS_PROXY, NO_PROXY), as undici's
// EnvHttpProxyAgent reads them. The HTTP client (http.ts), the probes and
// the diagnosis all go the same way.
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';

const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'];

/** Whether the environment names a proxy (then the harness reaches targets only through it). */
export function throughProxy(env: NodeJS.ProcessEnv = process.env): boolean {
  return PROXY_VARIABLES.some((name) => env[name]);
}

/**
 * The dispatcher of a target's exchanges: through the proxy the environment
 * names, if any, else direct. An http:// target goes to an http:// proxy as
 * a request in absolute form (RFC 9112 §3.2.2), as forward proxies expect;
 * an https:// target through a CONNECT tunnel. (undici tunnels http:// too
 * by default, and retries a refused CONNECT without end.)
 */
export function dispatcher(options: Agent.Options, env: NodeJS.ProcessEnv = process.env): Dispatcher {
  if (!throughProxy(env)) return new Agent(options);
  return new EnvHttpProxyAgent({ ...options, proxyTunnel: false });
}
