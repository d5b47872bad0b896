#!/usr/bin/env bash
# paysite-healthcheck [PATH] [PORT]: exits 0 when http://127.0.0.1:PORT/PATH answers 200.
#
# The runtime image is debian:bookworm-slim without curl or wget, and `paysite` is not an
# HTTP client, so this speaks just enough HTTP/1.0 over bash's /dev/tcp. PATH defaults to
# /readyz; PORT to the one in PAYSITE_ADDR (what `paysite serve` listens on), else 8080.
# Used by docker-compose.yml; Kubernetes probes use httpGet and do not need it.
set -euo pipefail
path="${1:-/readyz}"
addr="${PAYSITE_ADDR:-0.0.0.0:8080}"
port="${2:-${addr##*:}}"
# The inner script is single-quoted on purpose: it gets port and path as $1 and $2.
# shellcheck disable=SC2016
exec timeout 3 bash -c '
  exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
  printf "GET %s HTTP/1.0\r\nHost: localhost\r\nConnection: close\r\n\r\n" "$2" >&3
  IFS=" " read -r _version status _reason <&3
  [ "$status" = 200 ]
' healthcheck "$port" "$path"
