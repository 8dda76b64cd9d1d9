# Sightline: one image for every role (ROLE=all|api|worker). Build: docker build -t sightline .
# Stage 1 installs every dependency, compiles src/ to dist/ with tsc, then drops the dev
# dependencies; stage 2 holds the production dependencies, dist/ and migrations/ only, and runs
# the compiled service with plain node as the unprivileged `node` user.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the image brings its own Node 24, so the `node` dev dependency's install
# script (a second Node binary, for machines whose Node is older) is not wanted here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY web ./web
RUN node scripts/build.mjs && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# package.json: "type": "module" makes dist/*.js ES modules.
COPY package.json ./
COPY migrations ./migrations
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/main.js"]
