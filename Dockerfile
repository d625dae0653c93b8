# syntax=docker/dockerfile:1
# booty as a container: `docker compose up` runs PostgreSQL and two workers (compose.yaml).
# Two stages: the build stage emits JavaScript (esbuild) with the dev dependencies; the image
# keeps only dist/ and the production dependencies, and runs as the unprivileged `node` user.

ARG NODE_VERSION=20

FROM node:${NODE_VERSION}-bookworm AS build
WORKDIR /src
# The lockfile first, so a change of source reuses the dependency layer.
COPY package.json npm-shrinkwrap.json ./
RUN npm ci --no-audit --no-fund
COPY src ./src
COPY sim ./sim
COPY scripts/build.mjs ./scripts/
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
# bubblewrap is the sandbox's wall; git drives the workspaces; the toolchains are what the
# repositories' own tests need besides Node (extend the image, or pass TOOLCHAINS, for Go or Rust).
ARG TOOLCHAINS="python3 python3-venv"
RUN apt-get update \
  && apt-get install -y --no-install-recommends bubblewrap git ca-certificates tini ${TOOLCHAINS} \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY --from=build --chown=root:root /src/package.json /src/npm-shrinkwrap.json ./
COPY --from=build --chown=root:root /src/node_modules ./node_modules
COPY --from=build --chown=root:root /src/dist ./dist
COPY --chown=root:root app.yml ./
# The demo's sample repository: `docker run --rm <image> demo` checks an image with no accounts.
COPY --chown=root:root examples ./examples
COPY --chown=root:root eval ./eval

# The code is root's and read-only to booty; only /var/lib/booty (a volume) is writable.
RUN mkdir -p /var/lib/booty && chown node:node /var/lib/booty
USER node
ENV NODE_ENV=production \
  PORT=3000 \
  BOOTY_WORKDIR=/var/lib/booty/work \
  BOOTY_DB=/var/lib/booty/booty.db \
  XDG_CACHE_HOME=/var/lib/booty/cache \
  BOOTY_SANDBOX=required
VOLUME ["/var/lib/booty"]
EXPOSE 3000

HEALTHCHECK --interval=15s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# tini reaps the test runs' stray children and forwards SIGTERM, so shutdown is graceful.
ENTRYPOINT ["tini", "--", "node", "/app/dist/src/cli/bin.js"]
CMD ["serve"]
