// A target of a run: a server the catalog runs against, and its part in the
// run. The reports, the matrix and the exit code all read this one record.

/** reference: the project's server; prism: the Prism mock; target: a --target. */
export type Role = 'reference' | 'prism' | 'target';

export interface Target {
  /** Its column in the reports: "reference", "prism", "target" (one --target) or "target-N". */
  name: string;
  /** The base URL; it may carry a path prefix. */
  url: string;
  /** The bearer token it accepts. */
  token: string;
  role: Role;
  /** An informing target (the Prism mock) shows in the matrix and the reports but never decides the exit code. */
  informs: boolean;
  /** The target is known to accept only some tokens (a precondition of PS-AUTH-006). */
  restrictsTokens: boolean;
  /**
   * Where the token came from (`--token`, `PLANTSTORE_TOKEN`, …), for the
   * diagnosis to name; undefined when none was given and a placeholder
   * stands in. Targets the harness starts know their token.
   */
  tokenFrom?: string;
  /**
   * Credentials of the document's security schemes other than the token
   * (--credential SCHEME=VALUE), each with where it came from; a bearer
   * scheme without one takes the token.
   */
  credentials?: GivenCredential[];
  /** Headers sent with every request to it (-H), e.g. an API gateway's key. */
  headers?: Record<string, string>;
  /** More values to redact by value in every report: what the configuration file took from ${VAR}. */
  secrets?: string[];
}

/** A credential given for one security scheme of the document. */
export interface GivenCredential {
  /** The scheme's name under components.securitySchemes. */
  scheme: string;
  /** The credential: a token, an API key, or `user:password` for HTTP Basic. */
  value: string;
  /** Where it came from (`--credential`, `PLANTSTORE_CREDENTIAL`, `credential in FILE`), for the diagnosis to name. */
  from: string;
}

/** A well-formed bearer token for targets that accept any (the Prism mock), and the default --token. */
export const PLACEHOLDER_TOKEN = 'plantstore-conformance';
