# Production image: server.ts (compiled to .next/server.mjs by the build) in front of Next.js, with
# production dependencies only, running as a non-root user.
#   docker build -t agent-service .
#   docker run -p 127.0.0.1:3000:3000 -e DATABASE_URL=postgres://... agent-service
# Without DATABASE_URL the embedded database lives in the /data volume.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
# npm ci refuses a lock file that lacks other platforms' optional binaries (npm/cli#9846); only
# then fall back to an install from the same lock file.
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund --no-save

# The run-time node_modules: no build tools (TypeScript, esbuild, tsx, vitest...).
FROM node:20-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund || npm install --omit=dev --no-audit --no-fund --no-save

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN npm run build && rm -rf .next/cache

FROM node:20-bookworm-slim AS runner
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
RUN groupadd --system app && useradd --system --gid app --home-dir /app app \
    && mkdir /data && chown app:app /data
COPY --from=prod-deps --chown=app:app /app/node_modules ./node_modules
# The build output (pages, static files, server.mjs), the migrations read at start-up, and what
# Next.js's request handler reads at start (its config, tsconfig.json's paths).
COPY --from=build --chown=app:app /app/.next ./.next
COPY --chown=app:app drizzle ./drizzle
COPY --chown=app:app package.json next.config.ts server-externals.json tsconfig.json ./
COPY --chown=app:app scripts/start.mjs scripts/dist-dir.mjs ./scripts/
USER app
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node directly (not npm) so SIGTERM reaches the server, which drains and stops cleanly; with the
# node options of `npm start` (scripts/start.mjs says why).
CMD ["node", "--max-semi-space-size=64", "scripts/start.mjs"]
