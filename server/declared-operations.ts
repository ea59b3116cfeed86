// The operations the document declares beside the create operation. The
// server implements none of them (the specification shows only "Create
// plant"), but they are operations of the document, and "Every operation
// requires HTTP bearer authentication" (specification, Authentication rule
// 1): so credentials are checked first (401), then the answer is 404 with an
// Error record saying the operation is not implemented here. A 501 would say
// so too, but a 5xx tells a client the server failed, which it did not.
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from './auth.js';
import { ApiError } from './errors.js';

export interface DeclaredOperationsOptions {
  operations: Array<{ method: string; path: string }>;
  authenticator: Authenticator;
}

/** OpenAPI path templates (`/plants/{id}`) as Fastify routes (`/plants/:id`). */
function routePath(template: string): string {
  return template.replace(/\{([^}/]+)\}/g, (_, name: string) => `:${name.replace(/[^A-Za-z0-9_]/g, '_')}`);
}

export function declaredOperations(app: FastifyInstance, { operations, authenticator }: DeclaredOperationsOptions): void {
  for (const { method, path } of operations) {
    app.route({
      method,
      url: routePath(path),
      // Before the body is read, as on the create operation. An async hook (a promise per
      // request) is fine here: these routes only ever answer 401 or 404.
      onRequest: async (request) => authenticator.check(request.headers.authorization),
      handler: () => {
        throw new ApiError('NOT_FOUND', `${method} ${path} is declared by the document, but the reference server implements only the create operation.`);
      },
    });
  }
}
