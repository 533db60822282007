#!/usr/bin/env bash
# A streaming read replica of the local PostgreSQL server, for the replica tests
# (tests/scaling/replicas.test.ts; server/db/README.md, "Read replicas").
#
#   scripts/ci/replica.sh start PG_HOST PG_PORT REPLICA_PORT   prints the replica's directory
#   scripts/ci/replica.sh stop DIR                             stops it and removes DIR
#
# `pg_basebackup -R` copies the primary into a temporary directory and writes the standby
# settings (standby.signal, primary_conninfo); the copy then runs as a hot standby on
# REPLICA_PORT. Debian keeps postgresql.conf and pg_hba.conf outside the data directory, so the
# copy gets small ones of its own. Replication connections are allowed from 127.0.0.1 in the
# primary's pg_hba.conf when no line allows them yet (then the primary reloads). Run as root, the
# server programs run as the `postgres` account, as the primary's do.
set -euo pipefail

as_postgres() {
  if [[ "$(id -u)" == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

bin="/usr/lib/postgresql/$(ls /usr/lib/postgresql | sort -V | tail -n 1)/bin"

case "${1:-}" in
  start)
    host="$2" port="$3" replica_port="$4"
    primary=(psql -h "$host" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -tAc)
    hba="$("${primary[@]}" "show hba_file")"
    if ! grep -Eq '^[[:space:]]*host[[:space:]]+replication[[:space:]]' "$hba"; then
      echo "allowing replication connections from 127.0.0.1 in $hba" >&2
      printf 'host replication all 127.0.0.1/32 trust\n' >>"$hba"
      "${primary[@]}" "select pg_reload_conf()" >/dev/null
    fi
    # A hot standby refuses to start with less of these than its primary has.
    setting() { "${primary[@]}" "show $1"; }
    dir="$(mktemp -d /tmp/pg-replica-XXXXXX)"
    chmod 700 "$dir"
    if [[ "$(id -u)" == 0 ]]; then chown postgres "$dir"; fi
    as_postgres "$bin/pg_basebackup" -h "$host" -p "$port" -U postgres -D "$dir/data" -R -X stream -c fast >&2
    as_postgres tee "$dir/data/postgresql.conf" >/dev/null <<EOF
listen_addresses = '${host}'
port = ${replica_port}
unix_socket_directories = '${dir}'
hba_file = '${dir}/data/pg_hba.conf'
hot_standby = on
shared_buffers = 16MB
max_connections = $(setting max_connections)
max_worker_processes = $(setting max_worker_processes)
max_wal_senders = $(setting max_wal_senders)
max_prepared_transactions = $(setting max_prepared_transactions)
max_locks_per_transaction = $(setting max_locks_per_transaction)
EOF
    printf 'local all all trust\nhost all all %s/32 trust\n' "$host" | as_postgres tee "$dir/data/pg_hba.conf" >/dev/null
    as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/replica.log" -w -t 30 start >&2
    pg_isready -h "$host" -p "$replica_port" -U postgres -d postgres >&2
    echo "$dir"
    ;;
  stop)
    dir="$2"
    if [[ -f "$dir/data/postmaster.pid" ]]; then as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2; fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start PG_HOST PG_PORT REPLICA_PORT | stop DIR" >&2
    exit 2
    ;;
esac
