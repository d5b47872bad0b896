# Shared by scripts/up and scripts/test: make sure the machine has what paysite needs.
set -euo pipefail

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/paysite-target}"
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/paysite}"
export AMQP_URL="${AMQP_URL:-amqp://guest:guest@127.0.0.1:5672/%2f}"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# PostgreSQL and RabbitMQ run on this machine; start them if they are down.
ensure_services() {
  if ! pg_isready -q -h 127.0.0.1 -p 5432; then
    say "starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  fi
  if ! (exec 3<>/dev/tcp/127.0.0.1/5672) 2>/dev/null; then
    say "starting RabbitMQ"
    rabbitmq-server -detached
    for _ in $(seq 1 60); do (exec 3<>/dev/tcp/127.0.0.1/5672) 2>/dev/null && break; sleep 1; done
    rabbitmqctl await_startup >/dev/null 2>&1 || true
  fi
}

# The front end's packages (npm ci when the lock file changed) and its build.
build_frontend() {
  say "building the front end"
  (
    cd frontend
    if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
      npm ci --no-audit --no-fund
    fi
    npm run build
  )
}
