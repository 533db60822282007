#!/usr/bin/env bash
# Makes sure the local PostgreSQL server accepts connections and has the database `test`
# (the CI machine starts it before the run; this starts the cluster if it has stopped).
set -euo pipefail
host="$1" port="$2"
if ! pg_isready -h "$host" -p "$port" -q; then
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  echo "PostgreSQL is not accepting connections; starting cluster ${version}/main"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 1 60); do
    pg_isready -h "$host" -p "$port" -q && break
    sleep 1
  done
fi
pg_isready -h "$host" -p "$port"
if [[ "$(psql -h "$host" -p "$port" -U postgres -d postgres -tAc "select 1 from pg_database where datname = 'test'")" != "1" ]]; then
  echo "creating database test"
  psql -h "$host" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -c "create database test"
fi
