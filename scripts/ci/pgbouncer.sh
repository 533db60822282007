#!/usr/bin/env bash
# Starts Debian's PgBouncer in transaction mode on HOST:PORT in front of the PostgreSQL server at
# PG_HOST:PG_PORT (installing it if missing), as Neon's and Supabase's pooled URLs behave. Every
# database name is forwarded (test files create their own databases), trust auth like the server.
# Usage: scripts/ci/pgbouncer.sh HOST PORT PG_HOST PG_PORT; prints the directory holding its
# config, log and pid file. Stop it with `kill "$(cat <dir>/pgbouncer.pid)"`.
set -euo pipefail
host="$1" port="$2" pg_host="$3" pg_port="$4"
if ! command -v pgbouncer >/dev/null && [[ ! -x /usr/sbin/pgbouncer ]]; then
  echo "installing Debian's pgbouncer" >&2
  apt-get update >&2
  apt-get install -y pgbouncer >&2
fi
bin="$(command -v pgbouncer || echo /usr/sbin/pgbouncer)"
dir="$(mktemp -d /tmp/pgbouncer-XXXXXX)"
cat >"$dir/pgbouncer.ini" <<EOF
[databases]
* = host=${pg_host} port=${pg_port}

[pgbouncer]
listen_addr = ${host}
listen_port = ${port}
unix_socket_dir =
pool_mode = transaction
auth_type = trust
auth_file = ${dir}/users.txt
max_client_conn = 2000
default_pool_size = 20
max_db_connections = 40
logfile = ${dir}/pgbouncer.log
pidfile = ${dir}/pgbouncer.pid
EOF
echo '"postgres" ""' >"$dir/users.txt"
# PgBouncer refuses to run as root; it runs as the PostgreSQL server's own account then.
user_flag=()
if [[ "$(id -u)" == 0 ]]; then
  chown -R postgres "$dir"
  user_flag=(-u postgres)
fi
"$bin" -d "${user_flag[@]}" "$dir/pgbouncer.ini" >&2
for _ in $(seq 1 50); do
  pg_isready -h "$host" -p "$port" -U postgres -d postgres -q && break
  sleep 0.1
done
pg_isready -h "$host" -p "$port" -U postgres -d postgres >&2
echo "$dir"
