#!/usr/bin/env node
// The server's entry point: reads the environment, listens, and closes
// cleanly on SIGTERM and SIGINT (requests in flight are answered first).
import { StartError } from '../lib/start-error.js';
import { buildApp } from './app.js';
import { checkTogether, openSettings, readConfig, readStubConfig, type ServerConfig } from './config.js';
import { configuredSecrets } from './security/credentials.js';
import { readInitialPlantsFile } from './stub/initial-plants.js';
import { createServerLog, logFormat, type ServerLog } from './logging.js';
import type { PlantStore } from './store/store.js';
import { readWebhookConfig } from './webhooks/config.js';

/** A setting, a file, the document or the database the server cannot start with: the reason on standard error, and the error's exit code (2). */
function refuseToStart(error: StartError): never {
  log?.flush();
  // A document the server cannot serve: the keyword and its location, never a stack trace.
  const message =
    error.code === 'PLANTSTORE_DOCUMENT'
      ? `cannot serve the OpenAPI document ${config?.specPath ?? 'spec/openapi.yaml'}: ${error.message}`
      : error.message;
  process.stderr.write(`plantstore: ${message}\n`);
  process.exit(error.exitCode);
}

/** The password of a database URL, decoded, if it has one. */
function databasePassword(url: string | undefined): string[] | undefined {
  const password = url === undefined ? '' : new URL(url).password;
  return password === '' ? undefined : [decodeURIComponent(password)];
}

let config: ServerConfig | undefined;
let log: ServerLog | undefined;
let stub;
let app;
let store: PlantStore | undefined;
try {
  config = readConfig();
  stub = readStubConfig();
  // Every line of the log is redacted by value: the tokens, the admin token and the database's password never appear, whatever carries them.
  const secrets = [
    ...(stub.controlsToken === undefined ? [] : [stub.controlsToken]),
    ...(databasePassword(config.databaseUrl) ?? []),
  ];
  // Pretty at a terminal, JSON lines elsewhere or as LOG_FORMAT says; colours only at a terminal without NO_COLOR.
  const format = logFormat(process.stdout.isTTY === true, config.logFormat);
  log = createServerLog(
    config.logLevel,
    1,
    [...(config.tokens ?? []), ...configuredSecrets(config.credentials), ...secrets],
    format,
    process.stdout.isTTY === true && !process.env.NO_COLOR,
  );
  checkTogether(config, stub);
  if (config.databaseUrl !== undefined) {
    const logger = log.logger;
    // Loaded only when asked for: the in-memory default does not pay for the driver at start-up.
    const { openPostgresStore, redactDatabaseUrl } = await import('./store/postgres-store.js');
    logger.info(`plants kept in PostgreSQL at ${redactDatabaseUrl(config.databaseUrl)}`);
    store = await openPostgresStore({
      url: config.databaseUrl,
      maxPlants: config.maxPlants,
      maxBytes: config.maxBytes,
      poolSize: config.databasePool,
      onIdleError: (error) =>
        logger.warn({ reason: error.message }, 'a database connection closed; the next request opens another'),
    });
  }
  app = buildApp({
    store,
    tokens: config.tokens,
    credentials: config.credentials,
    bodyLimit: config.bodyLimit,
    maxPlants: config.maxPlants,
    maxBytes: config.maxBytes,
    specPath: config.specPath,
    inference: config.inference,
    strict: config.strict,
    loggerInstance: log.logger,
    secrets,
    stub: {
      controls: stub.controls,
      controlsToken: stub.controlsToken,
      allowedHosts: stub.allowedHosts,
      preferNeedsControlsToken: stub.preferNeedsControlsToken,
      journalSize: stub.journalSize,
      journalBytes: stub.journalBytes,
      delayMs: stub.delayMs,
    },
    initialPlants:
      stub.plantsFile === undefined ? undefined : readInitialPlantsFile(stub.plantsFile.path, stub.plantsFile.variable),
    webhooks: readWebhookConfig(),
  });
  // The document's API keys sent in the query: the log's URLs show them redacted, whatever their names.
  log.redactParameters(app.credentialNames.query);
} catch (error) {
  if (!(error instanceof StartError)) throw error;
  refuseToStart(error);
}
// The database's connections close after the server's last answer.
if (store !== undefined) app.addHook('onClose', async () => store.close());

for (const warning of [...openSettings(config, stub), ...app.credentialWarnings, ...stub.warnings])
  app.log.warn(warning);
for (const warning of app.documentWarnings) app.log.warn(warning);
// How each operation of the document is served: one served from its examples is named here, never a silent 404.
for (const note of app.operationNotes) app.log.info(note);
// What of the document is not served as written, feature by feature (PLANTSTORE_STRICT=on refuses such a document).
for (const feature of app.unservedFeatures) app.log.warn(feature);

const running = app;
let closing = false;
/** Closes as SIGTERM asks: the requests in flight are answered, the log written, then exit 0. */
function close(reason: Record<string, unknown>): void {
  if (closing) return;
  closing = true;
  running.log.info(reason, 'closing: answering requests in flight, then exiting');
  // close() ends the keep-alive connections that are idle when it starts;
  // one whose request is still in flight stays open after its answer until
  // the client lets go (a minute or more), so sweep those as they go idle.
  setInterval(() => running.server.closeIdleConnections(), 50).unref();
  running.close().then(
    // Every line logged (the answers' included) is written before the exit.
    async () => {
      await log?.close();
      process.exit(0);
    },
    (error: unknown) => {
      running.log.error({ err: error }, 'error while closing');
      process.exit(1);
    },
  );
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => close({ signal }));

/**
 * `npm start` and `npx plantstore-server` run the server through a shell
 * (`sh -c`): npm forwards SIGTERM to the shell, which dies of it without
 * passing it on, and the server would run on, an orphan holding its port.
 * Started by npm (which names the script in npm_lifecycle_event: `start`,
 * `npx`), the server watches its parent and closes as on SIGTERM when the
 * parent is gone (it is then adopted: its parent process id changes).
 * Started otherwise (the image, where it is PID 1; node itself; a
 * supervisor), the signals reach it, and a server left running on purpose
 * after its parent exits (nohup) is not stopped.
 */
const PARENT_POLL_MS = 250;
if (process.env.npm_lifecycle_event !== undefined) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    close({ parentGone: parent });
  }, PARENT_POLL_MS);
  watch.unref();
}

try {
  await app.listen({ port: config.port, host: config.host });
  // Whoever waits for the "Server listening at" line gets it now, not after the first batch.
  log?.flush();
} catch (error) {
  // The initial plants are stored as the app gets ready: a list that cannot be stored refuses the start.
  if (error instanceof StartError) refuseToStart(error);
  app.log.fatal({ err: error }, 'could not listen');
  process.exit(1);
}
