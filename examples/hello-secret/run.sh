#!/usr/bin/env bash
# Deploys hello-secret end to end against `npm start` (Exchange + agbot) with a local agent:
# an org and its admin, a signing key, the signed service, a deployment policy binding the secret
# `greeting`, the node registered with a matching policy; then shows the secret inside the
# container, changes it and shows the file change, and unregisters. Run from the repository root
# while `npm start` runs:   examples/hello-secret/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
export HZN_EXCHANGE_URL=${HZN_EXCHANGE_URL:-http://localhost:3090/v1}
export HZN_ORG_ID=${HZN_ORG_ID:-hello}
export HORIZON_URL=${HORIZON_URL:-http://localhost:8510}
agent_port=$(echo "$HORIZON_URL" | sed -E 's#.*:([0-9]+)/?$#\1#')
work=${HELLO_SECRET_DIR:-.data/hello-secret}
mkdir -p "$work"
work=$(cd "$work" && pwd)
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
hzn() { npx --no-install hzn "$@"; }

say "the Exchange at $HZN_EXCHANGE_URL"
curl -sf "$HZN_EXCHANGE_URL/admin/version" >/dev/null || { echo "start it first: npm start" >&2; exit 1; }
root_pw=${EXCHANGE_ROOT_PW:-$(cat .data/root-password)}

say "an org '$HZN_ORG_ID' and its admin (as root)"
admin_pw=$(cat "$work/admin-password" 2>/dev/null || (openssl rand -hex 12 | tee "$work/admin-password"))
curl -s -o /dev/null -u "root/root:$root_pw" -X POST -H 'content-type: application/json' \
  -d '{"label":"hello","description":"hello-secret example"}' "$HZN_EXCHANGE_URL/orgs/$HZN_ORG_ID"
curl -s -o /dev/null -u "root/root:$root_pw" -X POST -H 'content-type: application/json' \
  -d "{\"password\":\"$admin_pw\",\"admin\":true,\"email\":\"admin@example.com\"}" \
  "$HZN_EXCHANGE_URL/orgs/$HZN_ORG_ID/users/admin"
export HZN_EXCHANGE_USER_AUTH="admin:$admin_pw"

say "a container engine and the image"
if [ -z "${DOCKER_HOST:-}" ]; then
  export "$(scripts/containers/podman-service.sh start "$work/engine")"
  started_engine=1
fi
"$here/build-image.sh"

say "the node agent, dist/agent.mjs (log: $work/agent.log)"
# A fresh node each run: what an interrupted earlier run left behind goes first.
curl -s -o /dev/null -u "$HZN_ORG_ID/$HZN_EXCHANGE_USER_AUTH" -X DELETE "$HZN_EXCHANGE_URL/orgs/$HZN_ORG_ID/nodes/hello-node"
rm -rf "$work/agent"
# HELLO_SECRET_AGENT_BUILT=1: dist/agent.mjs is already built (the e2e test's run builds it once).
[ "${HELLO_SECRET_AGENT_BUILT:-}" = 1 ] || npm run --silent build:agent >/dev/null 2>&1
HZN_AGENT_PORT=$agent_port HZN_AGENT_DATA_DIR="$work/agent" HZN_AGENT_POLL_SECONDS=1 \
  node_modules/.bin/node dist/agent.mjs >"$work/agent.log" 2>&1 &
agent_pid=$!
cleanup() {
  hzn unregister -f -r >/dev/null 2>&1 || true
  kill "$agent_pid" 2>/dev/null || true
  wait "$agent_pid" 2>/dev/null || true
  if [ -n "${started_engine:-}" ]; then scripts/containers/podman-service.sh stop "$work/engine" || true; fi
}
trap cleanup EXIT
for _ in $(seq 1 50); do curl -sf "$HORIZON_URL/status" >/dev/null && break; sleep 0.2; done

say "a signing key, trusted by the agent; the signed service"
mkdir -p "$work/keys"
hzn key create "$HZN_ORG_ID" admin@example.com -k "$work/keys/service.private.key" -K "$work/keys/service.public.pem" -f -i >/dev/null
ARCH=$(uname -m | sed 's/x86_64/amd64/; s/aarch64/arm64/') HZN_ORG_ID=$HZN_ORG_ID \
  hzn exchange service publish -f "$here/service.json" -k "$work/keys/service.private.key" \
  -K "$work/keys/service.public.pem" -O

say "the deployment policy and the secret it binds"
hzn exchange deployment addpolicy hello-pol -f "$here/deployment-policy.json"
hzn secretsmanager secret add greeting --secretKey text -d 'hello from the secrets manager' -O

say "register the node; wait for the service (the agbot proposes within a round)"
hzn register -n "hello-node:$(openssl rand -hex 8)" --policy "$here/node-policy.json" -s hello-secret -t 180
hzn agreement list

container=$(podman ps --filter label=openhorizon.anax.service_name=hello-secret --format "{{.ID}}" | head -1)
say "inside container $container: /platform-secrets/app_secret"
podman exec "$container" cat /platform-secrets/app_secret; echo

say "change the secret; the file changes, the container keeps running"
hzn secretsmanager secret add greeting --secretKey text -d 'a new greeting' -O
for _ in $(seq 1 60); do
  podman exec "$container" cat /platform-secrets/app_secret | grep -q 'a new greeting' && break
  sleep 1
done
podman exec "$container" cat /platform-secrets/app_secret; echo
# The service prints the secret every 5 seconds: wait for a line with the new one.
for _ in $(seq 1 60); do
  podman logs --tail 1 "$container" 2>&1 | grep -q 'a new greeting' && break
  sleep 1
done
podman logs --tail 2 "$container"

say "the event log"
hzn eventlog list | tail -12
say "done: unregistering removes the container"
