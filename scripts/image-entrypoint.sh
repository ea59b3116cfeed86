#!/bin/sh
# The image's entry point. One image, two commands:
#   docker run IMAGE                          serves the stub (the reference server)
#   docker run IMAGE conformance ARGS...      runs the harness (ARGS as for plantstore-conformance)
# --help lists these; anything else runs as given (e.g. `docker run IMAGE node -e ...`).
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
  help|-h|--help)
    echo 'docker run IMAGE                         serves the stub, the reference server (docs/server.md, docs/stub.md)'
    echo 'docker run IMAGE conformance ARGS...     runs the harness (docker run IMAGE conformance --help)'
    echo 'docker run IMAGE COMMAND ARGS...         runs COMMAND (node, sh, ...)'
    exit 0
    ;;
  -*)
    # An option is not a command to run (exec would exit 127, "not found").
    echo "plantstore: $1 is not a command of the image; docker run IMAGE --help lists them" >&2
    exit 2
    ;;
  *)
    exec "$@"
    ;;
esac
