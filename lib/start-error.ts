// Start-up errors: what stops a command before it can do its job (a
// setting, a file, the document, the database, a server to start, a report
// to write), as against a bug. Each is a StartError with a code of the table
// below, so that a caller tells them from the rest with one check,
// `instanceof StartError`, says the message (no stack: the message says
// what to fix) and exits with the table's code. The server (server/start.ts)
// and the harness (conformance/cli/main.ts) both do.

/** Every code a StartError has: what it means, where it is thrown, and the exit code a command gives for it. */
export const START_ERRORS = {
  PLANTSTORE_CONFIG: {
    exitCode: 2,
    what: 'an environment variable the server cannot use, or two that are wrong together (server/config.ts ConfigError)',
  },
  PLANTSTORE_INITIAL_PLANTS: {
    exitCode: 2,
    what: 'initial plants that cannot be read or stored (server/stub/initial-plants.ts InitialPlantsError)',
  },
  PLANTSTORE_STORE_START: {
    exitCode: 2,
    what: 'a store that cannot be used at start: its database unreachable, or of a newer schema (server/store/store.ts StoreStartError)',
  },
  PLANTSTORE_DOCUMENT: {
    exitCode: 2,
    what: 'an OpenAPI document the server cannot serve or the harness cannot read (spec/openapi.ts DocumentError)',
  },
  PLANTSTORE_UNSERVED: {
    exitCode: 2,
    what: 'a document a strict server (PLANTSTORE_STRICT=on) cannot serve as it is written (server/operations/served-notes.ts UnservedError)',
  },
  PLANTSTORE_SERVER_START: {
    exitCode: 2,
    what: 'a server the harness starts (the reference, the Prism mock) that did not start (conformance/run/targets/start.ts ServerStartError)',
  },
  PLANTSTORE_REPORT_WRITE: {
    exitCode: 2,
    what: 'a report the harness cannot write (conformance/report/write.ts ReportWriteError)',
  },
  PLANTSTORE_USAGE: {
    exitCode: 2,
    what: 'arguments or environment variables of the harness that make no sense (conformance/cli/values.ts UsageError)',
  },
  PLANTSTORE_CONFIG_FILE: {
    exitCode: 2,
    what: 'a configuration file of the harness that cannot be read (conformance/cli/config-file.ts ConfigFileError)',
  },
  PLANTSTORE_DIVERGENCE_FILE: {
    exitCode: 2,
    what: 'a divergence file that does not load (conformance/run/differential/divergences.ts DivergenceFileError)',
  },
} as const satisfies Record<string, { exitCode: number; what: string }>;

export type StartErrorCode = keyof typeof START_ERRORS;

/** What stops a command at start; `code` says which kind (START_ERRORS). */
export class StartError extends Error {
  constructor(
    readonly code: StartErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** The exit code a command gives for this error. */
  get exitCode(): number {
    return START_ERRORS[this.code].exitCode;
  }
}
