#!/usr/bin/env bash
# Retrieve by slug, alternating rounds on one build and one PostgreSQL database: the floor
# (bench/floor-server/), the production server (npm start: the node:http door) and `next start`
# (the Next.js door), measured by the autocannon CLI in its own process. Needs a build in
# .next-bench/ (`npm run bench -- versioning` makes one).   bash bench/doors-ab.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DB=apifront_ab
psql -h 127.0.0.1 -U postgres -d postgres -qc "drop database if exists $DB with (force)" -c "create database $DB"
URL=postgres://postgres@127.0.0.1:5432/$DB
export NEXT_DIST_DIR=.next-bench NEXT_TELEMETRY_DISABLED=1 WORKERS=off DATABASE_URL=$URL LOG_LEVEL=warn
DATA_DIR=/tmp/apifront-ab-data node scripts/start.mjs -p 3320 > /tmp/apifront-ab-node.log 2>&1 &
NODE_PID=$!
for i in $(seq 60); do curl -sf http://127.0.0.1:3320/api/health >/dev/null && break; sleep 1; done
KEY=$(grep -o 'sk_[A-Za-z0-9_-]*' /tmp/apifront-ab-node.log | head -1)
NODE_ENV=production DATA_DIR=/tmp/apifront-ab-data node node_modules/next/dist/bin/next start -H 127.0.0.1 -p 3321 > /tmp/apifront-ab-next.log 2>&1 &
NEXT_PID=$!
for i in $(seq 60); do curl -sf http://127.0.0.1:3321/api/health >/dev/null && break; sleep 1; done
H="authorization: ApiKey $KEY"
curl -sf -X POST -H "$H" -H 'content-type: application/json' http://127.0.0.1:3320/api/applications/ -d '{"application":{"slug":"ab","data":{"parameters":{"p":1}}}}' > /dev/null
SLUG=$(curl -sf -X POST -H "$H" -H 'content-type: application/json' http://127.0.0.1:3320/api/applications/revisions/retrieve -d '{"application_ref":{"slug":"ab"}}' | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).application_revision.slug))')
BODY="{\"application_revision_ref\":{\"slug\":\"$SLUG\"}}"
FLOOR_BYTES=$(curl -sf -X POST -H "$H" -H 'content-type: application/json' http://127.0.0.1:3320/api/applications/revisions/retrieve -d "$BODY" | base64 -w0)
FLOOR_DATABASE_URL=$URL FLOOR_PORT=3322 FLOOR_RESPONSE_BASE64=$FLOOR_BYTES FLOOR_SLUG=$SLUG NODE_ENV=production node --import tsx bench/floor-server/main.ts > /tmp/apifront-ab-floor.log 2>&1 &
FLOOR_PID=$!
sleep 3
AC=node_modules/.bin/autocannon
run() { $AC -j -c 10 -d "$2" -m POST -H "$H" -H 'content-type: application/json' -b "$BODY" "http://127.0.0.1:$1/api/applications/revisions/retrieve" 2>/dev/null | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);console.log(r.requests.average, r.non2xx)})'; }
run 3320 2 >/dev/null; run 3321 2 >/dev/null; run 3322 2 >/dev/null
for round in 1 2 3 4 5; do
  f=$(run 3322 3); n=$(run 3320 3); x=$(run 3321 3)
  echo "round $round floor=$f node_door=$n next_start=$x"
done
kill $NODE_PID $NEXT_PID $FLOOR_PID; wait $NODE_PID $NEXT_PID $FLOOR_PID 2>/dev/null || true
psql -h 127.0.0.1 -U postgres -d postgres -qc "drop database if exists $DB with (force)"
rm -rf /tmp/apifront-ab-data
