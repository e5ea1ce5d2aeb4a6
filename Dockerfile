# TokenWatch's container image: the production build (`npm run build`, run as `npm run start:dist`
# runs it) on Node 20, as a user without privileges, its SQLite file in the volume /app/data.
#
#   docker build -t tokenwatch .
#   docker run -d --name tokenwatch --env-file .env -v tokenwatch-data:/app/data --stop-timeout 30 tokenwatch
#
# test/deploy/dockerfile.test.ts holds this file to the commands CI and the README use.

# Node 20 with what better-sqlite3 needs to compile where no prebuilt binary fits the platform.
# Only the stages that install dependencies use it: the image itself carries no compiler.
FROM node:20-slim AS toolchain
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app

# Every dependency, then the bot and its commands compiled to dist/.
FROM toolchain AS build
COPY package.json package-lock.json ./
# The simulator is a workspace package: npm ci links it, the build compiles it beside the bot.
COPY packages/tmds-simulator/package.json ./packages/tmds-simulator/
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY packages ./packages
COPY src ./src
COPY commands ./commands
RUN npm run build

# The runtime's node_modules: production dependencies only, compiled for the same Node as the
# image's (both stages start from node:20-slim). Apart from the build, so that a change to the
# sources rebuilds only the stage above.
FROM toolchain AS production-dependencies
COPY package.json package-lock.json ./
# npm ci reads every workspace the lockfile names; dist/ reaches the simulator by relative paths.
COPY packages/tmds-simulator/package.json ./packages/tmds-simulator/
RUN npm ci --omit=dev

FROM node:20-slim
WORKDIR /app
# DATABASE_PATH in the volume, so follows and the outbox outlive the container. The operators' HTTP
# server listens on every interface of the container, as a published port needs; HEALTHCHECK asks
# it from inside.
ENV NODE_ENV=production \
    DATABASE_PATH=/app/data/tokenwatch.db \
    HTTP_PORT=8080 \
    HTTP_HOST=0.0.0.0
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# package.json says "type": "module", which makes Node read dist/'s .js files as ES modules.
COPY package.json ./
# The font the charts are drawn in (src/charts/fonts.ts looks for assets/fonts/ above dist/).
COPY assets ./assets
# The program stays root's and read-only to the bot; only the data folder is the bot's. A named
# volume mounted there for the first time takes this folder's owner.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME /app/data
EXPOSE 8080
# Slim images have no curl: Node's own fetch asks /healthz, at HTTP_PORT if it was changed.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HTTP_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The bot stops cleanly on SIGTERM within SHUTDOWN_TIMEOUT (10 s by default): give it longer
# before the kill (docker run --stop-timeout 30, or stop_grace_period in docker-compose.yml).
STOPSIGNAL SIGTERM
CMD ["node", "--max-old-space-size=512", "dist/src/main.js"]
