#!/usr/bin/env bash
# Starts Podman's Docker-compatible API on a unix socket, for the agent's container tests and for
# running the agent on a machine without Docker.
#
#   scripts/containers/podman-service.sh start <dir>   # prints DOCKER_HOST=unix://<dir>/podman.sock
#   scripts/containers/podman-service.sh stop <dir>    # stops the service this script started
#
# Podman on Debian 12 needs two settings for the service process itself (not for each caller):
# runc as the runtime, and open-file/process limits within the machine's hard limit (its default
# asks for more and every container start fails). They go in <dir>/containers.conf.
set -euo pipefail

command=${1:?usage: podman-service.sh start|stop <dir>}
dir=${2:?usage: podman-service.sh start|stop <dir>}
mkdir -p "$dir"
socket="$dir/podman.sock"
pidfile="$dir/podman.pid"

case "$command" in
start)
  cat >"$dir/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]

[engine]
runtime = "runc"
CONF
  rm -f "$socket"
  CONTAINERS_CONF="$dir/containers.conf" nohup podman system service --time=0 "unix://$socket" \
    >"$dir/podman-service.log" 2>&1 &
  echo $! >"$pidfile"
  for _ in $(seq 1 100); do
    if curl -sf --unix-socket "$socket" http://engine/_ping >/dev/null 2>&1; then
      echo "DOCKER_HOST=unix://$socket"
      exit 0
    fi
    sleep 0.1
  done
  echo "podman system service did not answer on $socket; its log:" >&2
  cat "$dir/podman-service.log" >&2
  exit 1
  ;;
stop)
  if [ -f "$pidfile" ]; then
    kill "$(cat "$pidfile")" 2>/dev/null || true
    rm -f "$pidfile" "$socket"
  fi
  ;;
*)
  echo "unknown command: $command" >&2
  exit 2
  ;;
esac
