# The Plant Store reference server as a container image, for use as a stub in
# CI, with the conformance harness beside it. Configuration: the same
# environment variables as `npm start` (docs/server.md, docs/stub.md).
#
#   docker build -t plantstore .
#   docker run -p 4010:4010 -e PLANTSTORE_TOKENS=t plantstore
#   docker run --rm --network host plantstore conformance --target URL --token T

# Stage 1: install every dependency from the lockfile and compile TypeScript.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the `prepare` script would build before the sources are here.
# Optional dependencies stay: esbuild's binary for this platform is one (the
# bundle is built here); Prism, the other, never reaches the image.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY spec ./spec
COPY lib ./lib
COPY server ./server
COPY scripts/build.mjs scripts/bundle-server.mjs ./scripts/
COPY conformance ./conformance
RUN npm run build

# Stage 2: production dependencies, the compiled server and harness only.
FROM node:24-bookworm-slim
LABEL org.opencontainers.image.title="plantstore" \
      org.opencontainers.image.description="Plant Store API reference server, for use as a stub in CI, and its conformance harness" \
      org.opencontainers.image.version="0.1.0" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.base.name="docker.io/library/node:24-bookworm-slim"
# npm start listens on loopback by default; in a container that would be
# unreachable, and only the ports published with -p are reachable from outside.
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
# One layer, so npm's download cache never reaches the image. No Prism
# (--omit=optional): the image's harness runs against URLs. The find drops
# what nothing running reads (the packages' tests, docs, type declarations,
# source maps and Markdown): about half of node_modules.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
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
# The harness (`docker run IMAGE conformance ...`): its code, the ruleset it
# lints the document with, and the Prism divergence file its options name.
COPY --from=build /app/dist/conformance ./dist/conformance
COPY .spectral.yaml ./.spectral.yaml
COPY conformance/differential/divergences/prism.json ./conformance/differential/divergences/prism.json
COPY scripts/image-entrypoint.sh /usr/local/bin/plantstore-entrypoint
# Node 24's module compile cache, filled here by one start of the server
# (written when it exits on SIGTERM): later starts skip compiling the bundle.
ENV NODE_COMPILE_CACHE=/app/.node-compile-cache
RUN PORT=0 HOST=127.0.0.1 timeout -s TERM 3 node dist/server/start.bundle.mjs > /dev/null; test -n "$(ls -A /app/.node-compile-cache)"
# The files stay owned by root: the server cannot change its own code.
USER node
EXPOSE 4010
# Node itself does the check, so the image needs no curl or wget.
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4010)+'/__health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form, and the entry point execs node: node is PID 1 and receives
# SIGTERM from `docker stop` directly; server/start.ts answers the requests
# in flight, then exits 0. `conformance ARGS` runs the harness instead.
ENTRYPOINT ["plantstore-entrypoint"]
CMD ["serve"]
