# The handbook's production image: the built site and the compiled server on Node 24, production dependencies only,
# run as the unprivileged `node` user. Build: docker build -t acme-handbook .   Run: see compose.yaml and README.

# The workspaces' manifests alone, so both installs below are cached until a dependency changes.
FROM node:24-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY site/package.json site/
COPY server/package.json server/
# Fixes to dependencies not yet released (README, "Patched dependencies"), applied by npm ci's postinstall.
COPY patches patches

FROM manifests AS build
RUN npm ci --no-audit --no-fund
# What the build reads, and nothing else: never `COPY . .`, which would take an operator's .env and TLS keys
# (deploy/nginx/certs/) into a build stage even past a forgotten .dockerignore line.
COPY packages/contract/tsconfig.json packages/contract/
COPY packages/contract/src packages/contract/src
COPY site/docusaurus.config.ts site/site.config.ts site/sidebars.ts site/tags.yml site/tsconfig.json site/
COPY site/docs site/docs
COPY site/src site/src
COPY site/static site/static
COPY site/plugins site/plugins
COPY site/scripts site/scripts
COPY server/tsconfig.json server/
COPY server/scripts server/scripts
COPY server/src server/src
COPY server/drizzle server/drizzle
# The site, the compiled server (server/dist) and the empty embedded database new data directories are copied from;
# its archive is for the tests' in-memory databases alone, and stays out of the image.
RUN npm run build && rm -f server/.cache/*.tar

FROM manifests AS dependencies
# Only the server's runtime packages: no Docusaurus, no test tools. (Some land in server/node_modules.)
# Without scripts: patch-package is a build tool; the patched packages come from the build stage below.
RUN npm ci --omit=dev --workspace server --ignore-scripts --no-audit --no-fund && mkdir -p server/node_modules

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=dependencies /app/package.json ./
COPY --from=dependencies /app/node_modules node_modules
COPY --from=dependencies /app/server/node_modules server/node_modules
COPY --from=build /app/node_modules/postgres node_modules/postgres
COPY --from=build /app/packages/contract packages/contract
COPY --from=build /app/server/package.json server/
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/server/drizzle server/drizzle
COPY --from=build /app/server/.cache server/.cache
COPY --from=build /app/site/build site/build
RUN mkdir -m 0700 /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# Healthy once /readyz is 200 and the first search index is in, so that `docker compose up --wait` (a rolling update)
# moves on only when the instance can answer searches and questions, not while they still answer 503.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => r.ok ? r.json() : {}).then((b) => process.exit(b.search === 'ready' ? 0 : 1), () => process.exit(1))"]
# glibc serves allocations of 128 KiB and more by mappings of their own, given back when freed: left to itself its
# threshold rises after each large free, and the buffers of replaced search indexes stay resident (README, Quick start).
ENV MALLOC_MMAP_THRESHOLD_=131072
# node runs as process 1 itself (no npm, no shell), so `docker stop`'s SIGTERM reaches the server, which drains.
CMD ["node", "--max-semi-space-size=2", "--liftoff-only", "server/dist/start.js"]
