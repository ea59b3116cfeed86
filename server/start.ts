#!/usr/bin/env node
// The server's entry point: reads the environment, listens, and closes
// cleanly on SIGTERM and SIGINT (requests in flight are answered first).
import { DocumentError } from '../spec/openapi.js';
import { buildApp } from './app.js';
import { checkTogether, ConfigError, openSettings, readConfig, readStubConfig } from './config.js';
import { InitialPlantsError, readInitialPlantsFile } from './stub/initial-plants.js';
import { createServerLog, type ServerLog } from './logging.js';

let config;
let log: ServerLog | undefined;
let stub;
let app;
try {
  config = readConfig();
  log = createServerLog(config.logLevel);
  stub = readStubConfig();
  checkTogether(config, stub);
  app = buildApp({
    tokens: config.tokens,
    bodyLimit: config.bodyLimit,
    maxPlants: config.maxPlants,
    maxBytes: config.maxBytes,
    specPath: config.specPath,
    loggerInstance: log.logger,
    stub: {
      controls: stub.controls,
      controlsToken: stub.controlsToken,
      journalSize: stub.journalSize,
      journalBytes: stub.journalBytes,
      delayMs: stub.delayMs,
    },
    initialPlants: stub.plantsFile === undefined ? undefined : readInitialPlantsFile(stub.plantsFile.path, stub.plantsFile.variable),
  });
} catch (error) {
  if (error instanceof DocumentError) {
    // A document the server cannot serve: the keyword and its location, never a stack trace.
    process.stderr.write(`plantstore: cannot serve the OpenAPI document ${config?.specPath ?? 'spec/openapi.yaml'}: ${error.message}\n`);
    process.exit(2);
  }
  if (!(error instanceof ConfigError || error instanceof InitialPlantsError)) throw error;
  process.stderr.write(`plantstore: ${error.message}\n`);
  process.exit(2);
}

for (const warning of [...openSettings(config, stub), ...stub.warnings]) app.log.warn(warning);
for (const warning of app.documentWarnings) app.log.warn(warning);

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'closing: answering requests in flight, then exiting');
    // close() ends the keep-alive connections that are idle when it starts;
    // one whose request is still in flight stays open after its answer until
    // the client lets go (a minute or more), so sweep those as they go idle.
    setInterval(() => app.server.closeIdleConnections(), 50).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while closing');
        process.exit(1);
      },
    );
  });
}

try {
  await app.listen({ port: config.port, host: config.host });
  // Whoever waits for the "Server listening at" line gets it now, not after the first batch.
  log?.flush();
} catch (error) {
  app.log.fatal({ err: error }, 'could not listen');
  process.exit(1);
}
