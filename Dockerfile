# The Plant Store reference server as a container image, for use as a stub in
# CI. Configuration: the same environment variables as `npm start` (docs/server.md, docs/stub.md).
#
#   docker build -t plantstore .
#   docker run -p 4010:4010 -e PLANTSTORE_TOKENS=t plantstore

# Stage 1: install every dependency from the lockfile and compile TypeScript.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the `prepare` script would build before the sources are here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY spec ./spec
COPY lib ./lib
COPY server ./server
RUN npm run build

# Stage 2: production dependencies and the compiled server only.
FROM node:24-bookworm-slim
LABEL org.opencontainers.image.title="plantstore" \
      org.opencontainers.image.description="Plant Store API reference server, for use as a stub in CI" \
      org.opencontainers.image.version="0.1.0" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.base.name="docker.io/library/node:24-bookworm-slim"
# npm start listens on loopback by default; in a container that would be
# unreachable, and only the ports published with -p are reachable from outside.
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
# One layer, so npm's download cache never reaches the image. The find drops
# what no running server reads (the packages' tests, docs, type declarations,
# source maps and Markdown): about half of node_modules.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force 2>/dev/null \
 && find node_modules -type d \( -name test -o -name tests -o -name docs -o -name benchmarks -o -name examples \) -prune -exec rm -rf {} + \
 && find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' -o -name '*.md' \) -delete \
 && rm -rf /root/.npm /tmp/*
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/dist/spec ./dist/spec
# The server reads small HTTP rules it shares with the harness from lib/.
COPY --from=build /app/dist/lib ./dist/lib
# spec/openapi.ts reads the document at ../../spec/openapi.yaml from dist/spec/.
COPY spec/openapi.yaml ./spec/openapi.yaml
# The files stay owned by root: the server cannot change its own code.
USER node
EXPOSE 4010
# Node itself does the check, so the image needs no curl or wget.
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4010)+'/__health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM from `docker stop` directly;
# server/start.ts answers the requests in flight, then exits 0.
CMD ["node", "dist/server/start.js"]
