#!/bin/sh
# The image's entry point. One image, two commands:
#   docker run IMAGE                          serves the stub (the reference server)
#   docker run IMAGE conformance ARGS...      runs the harness (ARGS as for plantstore-conformance)
# Anything else runs as given (e.g. `docker run IMAGE node -e ...`).
# `exec` replaces this shell, so node is PID 1 and receives docker stop's
# SIGTERM itself (the server answers the requests in flight, then exits 0).
set -e
case "${1:-serve}" in
  serve)
    exec node /app/dist/server/start.bundle.mjs
    ;;
  conformance)
    shift
    exec node /app/dist/conformance/cli/main.js "$@"
    ;;
  *)
    exec "$@"
    ;;
esac
