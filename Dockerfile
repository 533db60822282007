# Production image: the Next.js standalone server, no dev dependencies, running as a non-root user.
#   docker build -t agent-service .
#   docker run -p 127.0.0.1:3000:3000 -e DATABASE_URL=postgres://... agent-service
# Without DATABASE_URL the embedded database lives in the /data volume.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci refuses a lock file that lacks other platforms' optional binaries (npm/cli#9846); only
# then fall back to an install from the same lock file.
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund --no-save

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runner
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOSTNAME=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
RUN groupadd --system app && useradd --system --gid app --home-dir /app app \
    && mkdir /data && chown app:app /data
# The standalone output carries server.js, the traced node_modules, the migrations and (copied
# by the postbuild step) the static files.
COPY --from=build --chown=app:app /app/.next/standalone ./
USER app
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.js"]
