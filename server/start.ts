// The server's entry point: reads the environment, listens, and closes
// cleanly on SIGTERM and SIGINT (requests in flight are answered first).
import { buildApp } from './app.js';
import { ConfigError, readConfig } from './config.js';

let config;
try {
  config = readConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`plantstore: ${error.message}\n`);
  process.exit(2);
}

const app = buildApp({
  tokens: config.tokens,
  bodyLimit: config.bodyLimit,
  maxPlants: config.maxPlants,
  logger: { level: config.logLevel },
});

if (config.tokens === undefined) {
  app.log.warn('PLANTSTORE_TOKENS is not set: any well-formed bearer token is accepted');
}

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'closing: answering requests in flight, then exiting');
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
} catch (error) {
  app.log.fatal({ err: error }, 'could not listen');
  process.exit(1);
}
