# The gw image: one image for every `gw` command, the operator by default. Node runs the TypeScript sources
# directly (type stripping); the only build step is the dashboard's web UI (a browser bundle, stage 3): the image
# is the runtime dependencies, the sources and that bundle.
#
#   docker build -t gw:v1.0.0 .
#   docker run gw:v1.0.0                                  the operator (in-cluster; the Helm chart's args follow)
#   docker run -v $PWD/gw.json:/etc/gw/gw.json:ro -p 8080:8080 gw:v1.0.0 gateway --config /etc/gw/gw.json
#                                                         the gateway with a configuration file
#   docker run gw:v1.0.0 --help                           every command
#
# Ports: 8081 probes (/healthz, /readyz), 8443 authenticated metrics, 9443 admission webhooks (the operator's
# defaults in charts/gw-operator). `gw up` is not for containers: it starts a local control plane.
# The Node major version here must be .node-version's (a test checks it).

# Stage 1: production dependencies only, from the lockfile.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# Stage 2: the body-transform engine (Go text/template + sprig v3), as WebAssembly (templates parsed at API load) and
# as the native process the gateway runs templates in, by the same script as CI and a developer machine
# (scripts/build-template-engine.sh), from the Go module proxy. The native binary is static (CGO_ENABLED=0).
FROM golang:1.26-bookworm AS template-engine
WORKDIR /build
COPY scripts/build-template-engine.sh ./scripts/
COPY scripts/lib/ ./scripts/lib/
COPY src/gateway/template/engine/ ./src/gateway/template/engine/
RUN built="$(GW_CACHE_DIR=/tmp/gw-cache scripts/build-template-engine.sh)" \
  && cp "$built" /template-engine.wasm && cp "$(dirname "$built")/template-engine" /template-engine

# Stage 3: the dashboard's web UI and the developer portal's browser files (its stylesheet, Swagger UI for the API
# page), bundled from npm by the same script as `npm ci` (scripts/build-ui.mjs); their libraries are
# devDependencies, needed here only.
FROM node:24-bookworm-slim AS ui
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY scripts/build-ui.mjs scripts/build-portal-site.mjs ./scripts/
COPY src/dashboard/ui/ ./src/dashboard/ui/
COPY src/dashboard/portal-site/browser/ ./src/dashboard/portal-site/browser/
RUN node scripts/build-ui.mjs

# Stage 4: the runtime. Files stay owned by root and read-only to the process, so the container can run with a
# read-only root filesystem (the chart sets readOnlyRootFilesystem: true).
FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
# bin/gw imports scripts/node24.mjs (it only re-executes under another Node when the running one is too old, never
# here), then runs src/cli.ts. Tests under src/ are left out by .dockerignore.
COPY bin/ ./bin/
COPY scripts/node24.mjs ./scripts/node24.mjs
COPY src/ ./src/
COPY crds/ ./crds/
COPY --from=ui /app/dist/dashboard-ui/ ./dist/dashboard-ui/
COPY --from=ui /app/dist/portal-site/ ./dist/portal-site/
COPY --from=template-engine /template-engine.wasm ./template-engine.wasm
# Found beside the .wasm (src/gateway/template/artefact.ts).
COPY --from=template-engine /template-engine ./template-engine
ENV GW_TEMPLATE_ENGINE=/app/template-engine.wasm
# The base image's unprivileged user `node`, by number so Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE 8081 8443 9443
ENTRYPOINT ["/app/bin/gw"]
CMD ["operator"]
