#!/usr/bin/env bash
# paysite-healthcheck [PATH] [PORT]: exits 0 when http://127.0.0.1:PORT/PATH answers 200.
#
# The runtime image is debian:bookworm-slim without curl or wget, and `paysite` is not an
# HTTP client, so this speaks just enough HTTP/1.0 over bash's /dev/tcp. PATH defaults to
# /readyz; PORT to the one in PAYSITE_OPS_ADDR (where `paysite serve` answers its operations
# routes), else 1000 above the port of PAYSITE_ADDR, else 9080 (the gateway's).
# Used by docker-compose.yml; Kubernetes probes use httpGet and do not need it.
set -euo pipefail
path="${1:-/readyz}"
api="${PAYSITE_ADDR:-0.0.0.0:8080}"
ops="${PAYSITE_OPS_ADDR:-0.0.0.0:$((${api##*:} + 1000))}"
port="${2:-${ops##*:}}"
# The inner script is single-quoted on purpose: it gets port and path as $1 and $2.
# shellcheck disable=SC2016
exec timeout 3 bash -c '
  exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
  printf "GET %s HTTP/1.0\r\nHost: localhost\r\nConnection: close\r\n\r\n" "$2" >&3
  IFS=" " read -r _version status _reason <&3
  [ "$status" = 200 ]
' healthcheck "$port" "$path"
