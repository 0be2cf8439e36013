#!/bin/sh
# Installs the Horizon node agent on a Linux device in one command: the single executable for the
# machine's architecture (which is also `hzn`), /etc/default/horizon, the data directory and the
# systemd unit horizon.service; starts the agent, registers the node and, with -w, waits until the
# service runs. Run again, it upgrades in place (same node, same agreements); --uninstall
# unregisters the node and removes everything it installed. POSIX sh; needs curl.
# Usage: agent-install.sh --help
set -eu

usage() {
  cat <<'EOF'
agent-install.sh [options]

Installs the Horizon agent (horizon-agent-linux-<arch> from the installer's directory, or -i),
registers the node with the Exchange and starts it as the systemd service horizon.service.

Settings come from the flags, then the environment, then the config file (-k, default
./agent-install.cfg), one KEY=value per line:
  HZN_EXCHANGE_URL            the Exchange, e.g. https://exchange.example.com/v1      (required)
  HZN_ORG_ID                  the node's org                                           (-O, required)
  HZN_EXCHANGE_USER_AUTH      user:password that creates the node                      (-u)
  HZN_EXCHANGE_NODE_AUTH      nodeid:token of a node that exists in the Exchange       (-a)
  HZN_NODE_ID                 the node id (default: the id of -a, else the host name)  (-d)
  HZN_NODE_POLICY             a node policy file                                       (-n)
  HZN_EXCHANGE_PATTERN        a deployment pattern instead of a policy                 (-p)
  HZN_MGMT_HUB_CERT_PATH      the CA certificate of the Exchange, if it has its own    (-c)
  AGENT_TRUSTED_KEYS          service signing public keys (.pem files) the agent trusts, space-separated
  AGENT_UPGRADE_KEYS          public keys (.pem files) an agent upgrade manifest must be signed with,
                              space-separated; pinned on the device (none: no upgrade is accepted)
  HZN_FSS_CSSURL              the object store of agent upgrades (default HZN_EXCHANGE_URL/css)
  AGENT_WAIT_FOR_SERVICE      wait until this service runs on the node                 (-w)
  AGENT_WAIT_FOR_SERVICE_ORG  the org of that service (default HZN_ORG_ID)             (-o)
  AGENT_REGISTRATION_TIMEOUT  seconds to wait for it (default 300)                     (-T)
  AGENT_WAIT_MAX_SECONDS      seconds to wait for the agent to answer (default 60)
  DOCKER_HOST                 the container engine (default: Docker's socket, else Podman's)
  HZN_AGENT_*                 agent settings (docs/agent.md), copied to /etc/default/horizon

Options:
  -k FILE         the config file
  -i DIR|URL      where horizon-agent-linux-<arch> is: a directory (default: the installer's),
                  or an http(s) address it is downloaded from (<URL>/horizon-agent-linux-<arch>)
  -s              install and start only, do not register
  --prefix DIR    install under DIR instead of / (no root needed with --no-systemd)
  --no-systemd    start the agent in the background instead of through systemd
  --uninstall     unregister the node, stop the agent, remove everything installed
  -h, --help      this text
EOF
}

# One line saying what to fix, and a non-zero exit: 2 usage or settings, 3 architecture,
# 4 container engine, 5 Exchange unreachable, 6 credentials, 7 timeout, 1 anything else.
fail() {
  code=$1
  shift
  printf 'agent-install.sh: %s\n' "$*" >&2
  exit "$code"
}
say() { printf '%s\n' "$*"; }

# ---- options: flags win over the environment, which wins over the config file ----
VARS="HZN_EXCHANGE_URL HZN_ORG_ID HZN_EXCHANGE_USER_AUTH HZN_EXCHANGE_NODE_AUTH HZN_NODE_ID HZN_DEVICE_ID
HZN_NODE_POLICY HZN_EXCHANGE_PATTERN HZN_MGMT_HUB_CERT_PATH AGENT_CERT_FILE AGENT_TRUSTED_KEYS
AGENT_UPGRADE_KEYS HZN_FSS_CSSURL
AGENT_WAIT_FOR_SERVICE AGENT_WAIT_FOR_SERVICE_ORG AGENT_REGISTRATION_TIMEOUT AGENT_WAIT_MAX_SECONDS
AGENT_SKIP_REGISTRATION INPUT_FILE_PATH DOCKER_HOST"
cfg_file=""
prefix=""
systemd=yes
action=install
flag() { # <variable> <value>: a flag's value, kept apart until the environment and file are read
  eval "FLAG_$1=\$2"
}
need() { [ "$#" -ge 2 ] || fail 2 "$1 needs a value: see agent-install.sh --help"; }
while [ "$#" -gt 0 ]; do
  case $1 in
  -k) need "$@"; cfg_file=$2; shift 2 ;;
  -i) need "$@"; flag INPUT_FILE_PATH "$2"; shift 2 ;;
  -O) need "$@"; flag HZN_ORG_ID "$2"; shift 2 ;;
  -u) need "$@"; flag HZN_EXCHANGE_USER_AUTH "$2"; shift 2 ;;
  -a) need "$@"; flag HZN_EXCHANGE_NODE_AUTH "$2"; shift 2 ;;
  -d) need "$@"; flag HZN_NODE_ID "$2"; shift 2 ;;
  -n) need "$@"; flag HZN_NODE_POLICY "$2"; shift 2 ;;
  -p) need "$@"; flag HZN_EXCHANGE_PATTERN "$2"; shift 2 ;;
  -c) need "$@"; flag HZN_MGMT_HUB_CERT_PATH "$2"; shift 2 ;;
  -w) need "$@"; flag AGENT_WAIT_FOR_SERVICE "$2"; shift 2 ;;
  -o) need "$@"; flag AGENT_WAIT_FOR_SERVICE_ORG "$2"; shift 2 ;;
  -T) need "$@"; flag AGENT_REGISTRATION_TIMEOUT "$2"; shift 2 ;;
  -s) flag AGENT_SKIP_REGISTRATION true; shift ;;
  --prefix) need "$@"; prefix=$2; shift 2 ;;
  --prefix=*) prefix=${1#--prefix=}; shift ;;
  --no-systemd) systemd=no; shift ;;
  --uninstall) action=uninstall; shift ;;
  -h | --help) usage; exit 0 ;;
  *) fail 2 "unknown option '$1': see agent-install.sh --help" ;;
  esac
done

here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$cfg_file" ] && [ -f ./agent-install.cfg ]; then cfg_file=./agent-install.cfg; fi
if [ -n "$cfg_file" ] && [ ! -r "$cfg_file" ]; then fail 2 "cannot read the config file $cfg_file (-k)"; fi

# KEY=value lines of the config file (never run as shell code); quotes around the value dropped.
cfg_value() {
  [ -n "$cfg_file" ] || return 0
  sed -n "s/^[[:space:]]*\(export[[:space:]]\{1,\}\)\{0,1\}$1=//p" "$cfg_file" | tail -n 1 |
    sed 's/^"\(.*\)"[[:space:]]*$/\1/; s/^'"'"'\(.*\)'"'"'[[:space:]]*$/\1/'
}
for var in $VARS; do
  eval "flagged=\${FLAG_$var+x} env_set=\${$var+x}"
  if [ -n "$flagged" ]; then
    eval "$var=\$FLAG_$var"
  elif [ -z "$env_set" ]; then
    value=$(cfg_value "$var")
    eval "$var=\$value"
  fi
done
HZN_NODE_ID=${HZN_NODE_ID:-${HZN_DEVICE_ID:-}}
HZN_MGMT_HUB_CERT_PATH=${HZN_MGMT_HUB_CERT_PATH:-${AGENT_CERT_FILE:-}}
if [ -z "$HZN_MGMT_HUB_CERT_PATH" ] && [ -f ./agent-install.crt ]; then HZN_MGMT_HUB_CERT_PATH=./agent-install.crt; fi

# ---- where things go ----
prefix=${prefix%/}
bin_dir=$prefix/usr/local/bin
# The executable lives where the agent may replace it when it upgrades itself (docs/nmp.md), which
# the unit's ProtectSystem=strict leaves read-only everywhere else; bin_dir holds links to it.
lib_dir=$prefix/usr/local/lib/horizon
agent_bin=$lib_dir/horizon-agent
guard_bin=$lib_dir/upgrade-guard
agent_link=$bin_dir/horizon-agent
hzn_bin=$bin_dir/hzn
defaults_file=$prefix/etc/default/horizon
etc_dir=$prefix/etc/horizon
cert_file=$etc_dir/agent-install.crt
unit_file=$prefix/etc/systemd/system/horizon.service
data_dir=$prefix/var/lib/horizon
pid_file=$data_dir/agent.pid
upgrade_keys_dir=$data_dir/upgrade-keys
log_file=$data_dir/agent.log

if [ "$(id -u)" -ne 0 ] && { [ -z "$prefix" ] || [ "$systemd" = yes ]; }; then
  fail 2 "run it as root (sudo), or give --prefix DIR --no-systemd to install without root"
fi
if [ "$systemd" = yes ] && [ ! -d /run/systemd/system ]; then
  fail 2 "systemd is not running on this machine: give --no-systemd to start the agent without it"
fi
command -v curl >/dev/null 2>&1 ||
  fail 2 "curl is missing: install it (apt-get install -y curl, or dnf install -y curl)"

installed_value() { # <name>: its value in the installed /etc/default/horizon
  [ -f "$defaults_file" ] && sed -n "s/^$1=//p" "$defaults_file" | tail -n 1
}
# The port of the agent's local API: given, else the installed one, else upstream's 8510.
agent_port=${HZN_AGENT_PORT:-$(cfg_value HZN_AGENT_PORT)}
agent_port=${agent_port:-$(installed_value HZN_AGENT_PORT || true)}
agent_port=${agent_port:-8510}
HORIZON_URL=http://127.0.0.1:$agent_port
export HORIZON_URL

# Any HZN_AGENT_* of the config file or the environment (the environment wins, as for the other
# settings) goes to /etc/default/horizon.
agent_settings() {
  {
    if [ -n "$cfg_file" ]; then
      sed -n 's/^[[:space:]]*\(export[[:space:]]\{1,\}\)\{0,1\}\(HZN_AGENT_[A-Z0-9_]*\)=.*/\2/p' "$cfg_file"
    fi
    env | sed -n 's/^\(HZN_AGENT_[A-Z0-9_]*\)=.*/\1/p'
  } | sort -u | while read -r name; do
    case $name in HZN_AGENT_PORT | HZN_AGENT_DATA_DIR) continue ;; esac
    eval "set_in_env=\${$name+x}"
    if [ -n "$set_in_env" ]; then eval "value=\$$name"; else value=$(cfg_value "$name"); fi
    printf '%s=%s\n' "$name" "$value"
  done
}

agent_answers() { curl -sf -o /dev/null --max-time 2 "$HORIZON_URL/status"; }

# The agent started by this installer without systemd, if it still runs.
running_pid() {
  [ -f "$pid_file" ] || return 1
  pid=$(cat "$pid_file")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q horizon-agent &&
    printf '%s\n' "$pid"
}

start_agent() {
  if [ "$systemd" = yes ]; then
    systemctl daemon-reload
    systemctl enable --quiet horizon.service
    systemctl restart horizon.service
  else
    # The settings of /etc/default/horizon, as systemd's EnvironmentFile= passes them (a value is
    # the rest of its line, spaces included; the file is not shell code).
    (
      while IFS= read -r line; do
        case $line in '' | '#'*) continue ;; esac
        export "$line"
      done <"$defaults_file"
      exec "$agent_bin" >>"$log_file" 2>&1 </dev/null
    ) &
    printf '%s\n' "$!" >"$pid_file"
  fi
  waited=0
  max=${AGENT_WAIT_MAX_SECONDS:-60}
  until agent_answers; do
    if [ "$waited" -ge "$max" ]; then
      where="journalctl -u horizon"
      [ "$systemd" = yes ] || where=$log_file
      fail 1 "the agent did not answer on $HORIZON_URL within $max s: see $where"
    fi
    sleep 1
    waited=$((waited + 1))
  done
}

stop_agent() {
  if [ "$systemd" = yes ]; then
    if [ -f "$unit_file" ]; then systemctl stop horizon.service 2>/dev/null || true; fi
    return 0
  fi
  pid=$(running_pid) || return 0
  kill "$pid"
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  rm -f "$pid_file"
}

hzn() { "$hzn_bin" "$@"; }

if [ "$action" = uninstall ]; then
  [ -e "$agent_link" ] || fail 2 "no agent installed under ${prefix:-/} (no $agent_link)"
  HZN_EXCHANGE_URL=${HZN_EXCHANGE_URL:-$(installed_value HZN_EXCHANGE_URL || true)}
  HZN_ORG_ID=${HZN_ORG_ID:-$(installed_value HZN_ORG_ID || true)}
  export HZN_EXCHANGE_URL HZN_ORG_ID
  # Only the agent holds the node's token: it unregisters the node, so it must run.
  if ! agent_answers; then start_agent; fi
  node_left=""
  if curl -sf -o /dev/null "$HORIZON_URL/node"; then
    say "unregistering the node (its agreements end, their containers are removed)"
    hzn unregister -f -r || node_left=yes
  fi
  stop_agent
  if [ "$systemd" = yes ]; then systemctl disable --quiet horizon.service 2>/dev/null || true; fi
  created_user=""
  if [ -z "$prefix" ] && grep -q '^User=horizon$' "$unit_file" 2>/dev/null; then created_user=yes; fi
  rm -rf "$data_dir" "$etc_dir" "$lib_dir"
  rm -f "$agent_link" "$hzn_bin" "$defaults_file" "$unit_file"
  if [ "$systemd" = yes ]; then systemctl daemon-reload; fi
  if [ -n "$created_user" ]; then userdel horizon 2>/dev/null || true; fi
  if [ -n "$prefix" ]; then
    for dir in usr/local/bin usr/local/lib usr/local usr etc/default etc/systemd/system etc/systemd etc var/lib var; do
      rmdir "$prefix/$dir" 2>/dev/null || true
    done
  fi
  if [ -n "$node_left" ]; then
    fail 5 "removed the agent, but the Exchange did not remove the node: delete it with 'hzn exchange node remove'"
  fi
  say "the Horizon agent is uninstalled"
  exit 0
fi

# ---- checks: each failure is one line saying what to fix ----
case $(uname -m) in
x86_64 | amd64) arch=x64 ;;
aarch64 | arm64) arch=arm64 ;;
*) fail 3 "unsupported architecture $(uname -m): the agent is built for x86_64 and aarch64" ;;
esac
input=${INPUT_FILE_PATH:-$here}
case $input in
http://* | https://*) download=${input%/}/horizon-agent-linux-$arch ;;
*)
  download=""
  executable=$input/horizon-agent-linux-$arch
  [ -f "$executable" ] ||
    fail 2 "no horizon-agent-linux-$arch in $input: copy it next to agent-install.sh, or give its directory or URL with -i"
  ;;
esac

[ -n "$HZN_EXCHANGE_URL" ] || fail 2 "HZN_EXCHANGE_URL is not set: put it in agent-install.cfg or the environment"
[ -n "$HZN_ORG_ID" ] || fail 2 "HZN_ORG_ID is not set: put it in agent-install.cfg, the environment or -O"
HZN_EXCHANGE_URL=${HZN_EXCHANGE_URL%/}
export HZN_EXCHANGE_URL HZN_ORG_ID
if [ -n "$HZN_EXCHANGE_PATTERN" ] && [ -n "$HZN_NODE_POLICY" ]; then
  fail 2 "give a node policy (-n) or a pattern (-p), not both"
fi
if [ -n "$HZN_NODE_POLICY" ] && [ ! -r "$HZN_NODE_POLICY" ]; then fail 2 "cannot read the node policy file $HZN_NODE_POLICY (-n)"; fi
for key in $AGENT_UPGRADE_KEYS; do
  [ -r "$key" ] || fail 2 "cannot read the upgrade key $key (AGENT_UPGRADE_KEYS)"
  grep -q -e '-----BEGIN PUBLIC KEY-----' -e '-----BEGIN RSA PUBLIC KEY-----' "$key" ||
    fail 2 "the upgrade key $key is not a PEM public key (AGENT_UPGRADE_KEYS): give the publisher's public key, never its private key"
done
if [ -n "$HZN_MGMT_HUB_CERT_PATH" ] && [ ! -r "$HZN_MGMT_HUB_CERT_PATH" ]; then
  fail 2 "cannot read the Exchange's certificate $HZN_MGMT_HUB_CERT_PATH (-c)"
fi
for key in $AGENT_TRUSTED_KEYS; do
  case $key in *.pem) ;; *) fail 2 "trusted key $key must be a .pem file (AGENT_TRUSTED_KEYS)" ;; esac
  [ -r "$key" ] || fail 2 "cannot read the trusted key $key (AGENT_TRUSTED_KEYS)"
done

# The container engine: Docker's socket, else rootful Podman's, unless DOCKER_HOST names one.
if [ -z "$DOCKER_HOST" ]; then
  DOCKER_HOST=unix:///var/run/docker.sock
  if [ ! -S /var/run/docker.sock ] && [ -S /run/podman/podman.sock ]; then DOCKER_HOST=unix:///run/podman/podman.sock; fi
fi
case $DOCKER_HOST in
unix://*) socket=${DOCKER_HOST#unix://} ;;
*) fail 4 "DOCKER_HOST=$DOCKER_HOST: the agent talks to its container engine over a unix socket (unix:///path)" ;;
esac
if [ ! -S "$socket" ] || ! curl -sf -o /dev/null --max-time 5 --unix-socket "$socket" http://engine/_ping; then
  fail 4 "no container engine answers at $socket: install Docker or Podman (systemctl enable --now podman.socket), or set DOCKER_HOST"
fi

cacert=""
if [ -n "$HZN_MGMT_HUB_CERT_PATH" ]; then cacert="--cacert $HZN_MGMT_HUB_CERT_PATH"; fi
# shellcheck disable=SC2086
if ! error=$(curl -sS -o /dev/null --max-time 10 $cacert "$HZN_EXCHANGE_URL/admin/version" 2>&1); then
  fail 5 "cannot reach the Exchange at $HZN_EXCHANGE_URL (${error#curl: }): check HZN_EXCHANGE_URL, the network, or -c for its certificate"
fi

# Credentials, when this run registers (an upgrade of a registered node needs none).
installed_before=""
[ -e "$data_dir/agent.db" ] && installed_before=yes
check_credentials() { # <what> <org/id:secret> <path that the identity may read>
  # shellcheck disable=SC2086
  status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 $cacert -u "$2" "$HZN_EXCHANGE_URL/$3") || status=000
  case $status in
  2??) ;;
  401) fail 6 "the Exchange refused $1 for org $HZN_ORG_ID: check the id and password or token" ;;
  403 | 404) fail 6 "$1 cannot read $3 in the Exchange: check HZN_ORG_ID and that the user or node belongs to it" ;;
  *) fail 5 "the Exchange answered $status when checking $1: try again, or check HZN_EXCHANGE_URL" ;;
  esac
}
with_org() { case $1 in */*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$HZN_ORG_ID" "$1" ;; esac }
if [ -n "$HZN_EXCHANGE_NODE_AUTH" ]; then
  node_of_auth=${HZN_EXCHANGE_NODE_AUTH%%:*}
  HZN_NODE_ID=${HZN_NODE_ID:-${node_of_auth#*/}}
  check_credentials HZN_EXCHANGE_NODE_AUTH "$(with_org "$HZN_EXCHANGE_NODE_AUTH")" "orgs/$HZN_ORG_ID/nodes/$HZN_NODE_ID"
fi
if [ -n "$HZN_EXCHANGE_USER_AUTH" ]; then
  check_credentials HZN_EXCHANGE_USER_AUTH "$(with_org "$HZN_EXCHANGE_USER_AUTH")" "orgs/$HZN_ORG_ID"
fi
if [ -z "$HZN_EXCHANGE_NODE_AUTH$HZN_EXCHANGE_USER_AUTH" ] && [ -z "$installed_before" ] && [ -z "$AGENT_SKIP_REGISTRATION" ]; then
  fail 2 "no credentials: set HZN_EXCHANGE_USER_AUTH (-u user:password) or HZN_EXCHANGE_NODE_AUTH (-a node:token)"
fi
HZN_NODE_ID=${HZN_NODE_ID:-$(hostname)}

# -i URL: the executable is downloaded before anything is stopped or replaced.
if [ -n "$download" ]; then
  executable=$(mktemp "${TMPDIR:-/tmp}/horizon-agent.XXXXXX")
  trap 'rm -f "$executable"' EXIT
  if ! error=$(curl -sSf --retry 2 -o "$executable" "$download" 2>&1); then
    fail 2 "cannot download $download (${error#curl: }): check -i, or copy horizon-agent-linux-$arch next to agent-install.sh"
  fi
  say "downloaded $download"
fi

# ---- install (an upgrade replaces the files and keeps the data directory) ----
if [ -n "$installed_before" ]; then say "upgrading the agent installed under ${prefix:-/}"; fi
stop_agent
mkdir -p "$bin_dir" "$lib_dir" "${defaults_file%/*}" "${unit_file%/*}"
mkdir -p "$data_dir"
chmod 0700 "$data_dir"
cp "$executable" "$agent_bin.new"
chmod 0755 "$agent_bin.new"
mv -f "$agent_bin.new" "$agent_bin"
rm -f "$agent_bin.previous" # an upgrade's kept executable: this install replaces what it would restore
ln -sf "$agent_bin" "$agent_link"
ln -sf "$agent_bin" "$hzn_bin"
# Before each start under systemd: a new build that keeps failing to start (systemd restarting it)
# is replaced by the one it upgraded from at its 4th start, and that agent reports the rollback
# (docs/nmp.md, "A build that exits at start"). The agent clears the count when it writes or
# settles an upgrade's journal.
cat >"$guard_bin.new" <<'GUARD'
#!/bin/sh
# upgrade-guard <data dir> <executable>: written by agent-install.sh, run by horizon.service.
journal=$1/nmp/upgrade-journal.json
starts=$journal.starts
if [ ! -e "$journal" ]; then
  rm -f "$starts"
  exit 0
fi
count=$(($(cat "$starts" 2>/dev/null || echo 0) + 1))
echo "$count" >"$starts"
if [ "$count" -gt 3 ] && [ -e "$2.previous" ]; then
  mv -f "$2.previous" "$2"
  echo "upgrade-guard: the upgraded agent did not start 3 times: the previous one is back" >&2
fi
exit 0
GUARD
chmod 0755 "$guard_bin.new"
mv -f "$guard_bin.new" "$guard_bin"
# The keys agent upgrades must be signed with (docs/nmp.md): given, they replace the pinned set; not
# given, an upgrade keeps the set pinned before. Only the device's administrator changes them.
if [ -n "$AGENT_UPGRADE_KEYS" ]; then
  rm -rf "$upgrade_keys_dir.new"
  mkdir -p "$upgrade_keys_dir.new"
  for key in $AGENT_UPGRADE_KEYS; do cp "$key" "$upgrade_keys_dir.new/$(basename "$key" .pem).pem"; done
  chmod 0755 "$upgrade_keys_dir.new"
  chmod 0644 "$upgrade_keys_dir.new"/*
  rm -rf "$upgrade_keys_dir"
  mv "$upgrade_keys_dir.new" "$upgrade_keys_dir"
fi
agent_cert=""
if [ -n "$HZN_MGMT_HUB_CERT_PATH" ]; then
  mkdir -p "$etc_dir"
  cp "$HZN_MGMT_HUB_CERT_PATH" "$cert_file.new"
  mv -f "$cert_file.new" "$cert_file"
  agent_cert=$cert_file
fi

# Its own user when the engine's socket belongs to a group (Docker's `docker`); root otherwise
# (rootful Podman's socket is root's alone).
run_user=""
socket_group=$(stat -c %G "$socket" 2>/dev/null || echo root)
if [ "$socket_group" != root ] && [ "$socket_group" != UNKNOWN ]; then
  run_user=horizon
  if [ -z "$prefix" ] && [ "$systemd" = yes ] && ! id horizon >/dev/null 2>&1; then
    useradd --system --no-create-home --home-dir "$data_dir" --shell /usr/sbin/nologin horizon
  fi
  if [ -z "$prefix" ] && [ "$systemd" = yes ]; then chown -R horizon: "$data_dir" && chown horizon: "$lib_dir"; fi
fi

umask_before=$(umask)
umask 077
{
  say "# Written by agent-install.sh; read by horizon.service and by hzn."
  say "HZN_EXCHANGE_URL=$HZN_EXCHANGE_URL"
  say "HZN_ORG_ID=$HZN_ORG_ID"
  say "HZN_DEVICE_ID=$HZN_NODE_ID"
  say "HZN_AGENT_PORT=$agent_port"
  say "HORIZON_URL=$HORIZON_URL"
  say "HZN_AGENT_DATA_DIR=$data_dir"
  say "DOCKER_HOST=$DOCKER_HOST"
  if [ -n "$HZN_FSS_CSSURL" ]; then say "HZN_FSS_CSSURL=$HZN_FSS_CSSURL"; fi
  if [ -n "$agent_cert" ]; then
    say "HZN_MGMT_HUB_CERT_PATH=$agent_cert"
    say "NODE_EXTRA_CA_CERTS=$agent_cert"
  fi
  agent_settings
} >"$defaults_file.new"
umask "$umask_before"
chmod 0644 "$defaults_file.new"
mv -f "$defaults_file.new" "$defaults_file"

{
  say "# Written by agent-install.sh."
  say "[Unit]"
  say "Description=Horizon node agent"
  say "Wants=network-online.target"
  say "After=network-online.target docker.service podman.socket"
  say ""
  say "[Service]"
  say "Type=simple"
  say "Environment=DOCKER_HOST=$DOCKER_HOST"
  say "EnvironmentFile=$defaults_file"
  say "ExecStartPre=$guard_bin $data_dir $agent_bin"
  say "ExecStart=$agent_bin"
  say "Restart=on-failure"
  say "RestartSec=5s"
  say "TimeoutStopSec=30s"
  if [ -n "$run_user" ]; then
    say "User=$run_user"
    say "SupplementaryGroups=$socket_group"
    say "CapabilityBoundingSet="
  fi
  say "NoNewPrivileges=yes"
  say "ProtectSystem=strict"
  say "ReadWritePaths=$data_dir $lib_dir"
  say "ProtectHome=yes"
  say "PrivateTmp=yes"
  say "PrivateDevices=yes"
  say "ProtectKernelTunables=yes"
  say "ProtectKernelModules=yes"
  say "ProtectKernelLogs=yes"
  say "ProtectControlGroups=yes"
  say "ProtectClock=yes"
  say "ProtectHostname=yes"
  say "RestrictSUIDSGID=yes"
  say "RestrictRealtime=yes"
  say "RestrictNamespaces=yes"
  say "LockPersonality=yes"
  say "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6"
  say "SystemCallArchitectures=native"
  say ""
  say "[Install]"
  say "WantedBy=multi-user.target"
} >"$unit_file"

start_agent
say "the agent answers on $HORIZON_URL ($agent_bin)"

for key in $AGENT_TRUSTED_KEYS; do
  curl -sf -o /dev/null -X PUT -H 'content-type: text/plain' --data-binary "@$key" \
    "$HORIZON_URL/trust/${key##*/}" || fail 2 "the agent refused the trusted key $key: it must be an RSA public key or a self-signed certificate"
done

# ---- registration: kept when the node is already registered as asked ----
node_field() { # <field>: a top-level string of GET /node (one key per line in hzn's output)
  hzn node list 2>/dev/null | sed -n "s/^  \"$1\": \"\(.*\)\",\{0,1\}$/\1/p" | head -n 1
}
if [ -z "$AGENT_SKIP_REGISTRATION" ]; then
  current_id=""
  case $(hzn node list 2>/dev/null | sed -n 's/^    "state": "\(.*\)",\{0,1\}$/\1/p') in
  configured | configuring) current_id=$(node_field id) ;;
  esac
  current_org=$(node_field organization)
  current_pattern=$(node_field pattern)
  if [ -n "$current_id" ] && { [ "$current_id" != "$HZN_NODE_ID" ] || [ "$current_org" != "$HZN_ORG_ID" ] ||
    [ "$current_pattern" != "$HZN_EXCHANGE_PATTERN" ]; }; then
    say "the agent is registered as $current_org/$current_id: unregistering it first"
    hzn unregister -f || fail 1 "could not unregister $current_org/$current_id: see hzn eventlog list"
    current_id=""
  fi
  if [ -n "$current_id" ]; then
    say "the node $HZN_ORG_ID/$HZN_NODE_ID is registered: kept (its agreements too)"
    if [ -n "$HZN_NODE_POLICY" ]; then hzn policy update -f "$HZN_NODE_POLICY" >/dev/null; fi
  else
    token=${HZN_EXCHANGE_NODE_AUTH#*:}
    if [ -z "$HZN_EXCHANGE_NODE_AUTH" ]; then token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n'); fi
    set -- -o "$HZN_ORG_ID" -n "$HZN_NODE_ID:$token"
    if [ -n "$HZN_EXCHANGE_USER_AUTH" ]; then set -- "$@" -u "$HZN_EXCHANGE_USER_AUTH"; fi
    if [ -n "$HZN_NODE_POLICY" ]; then set -- "$@" --policy "$HZN_NODE_POLICY"; fi
    if [ -n "$HZN_EXCHANGE_PATTERN" ]; then set -- "$@" -p "$HZN_EXCHANGE_PATTERN"; fi
    hzn register "$@" || fail 1 "registration of $HZN_ORG_ID/$HZN_NODE_ID failed (above): see hzn eventlog list"
  fi
fi

# ---- -w: until the service's agreement has its containers running ----
service_runs() { # <org> <url>: an active agreement for it whose workload is executing
  hzn agreement list 2>/dev/null | awk -v org="$1" -v url="$2" '
    /"agreement_execution_start_time":/ { started = ($0 !~ /: ""/) }
    /"url":/ { split($0, part, "\""); u = part[4] }
    /"org":/ { split($0, part, "\""); o = part[4]; if (started && o == org && (u == url || url == "*")) found = 1 }
    END { exit(found ? 0 : 1) }'
}
if [ -n "$AGENT_WAIT_FOR_SERVICE" ] && [ -z "$AGENT_SKIP_REGISTRATION" ]; then
  wait_org=${AGENT_WAIT_FOR_SERVICE_ORG:-$HZN_ORG_ID}
  timeout=${AGENT_REGISTRATION_TIMEOUT:-300}
  say "waiting up to $timeout s for $wait_org/$AGENT_WAIT_FOR_SERVICE to run"
  waited=0
  until service_runs "$wait_org" "$AGENT_WAIT_FOR_SERVICE"; do
    if [ "$waited" -ge "$timeout" ]; then
      fail 7 "$wait_org/$AGENT_WAIT_FOR_SERVICE did not start within $timeout s: see hzn agreement list and hzn eventlog list"
    fi
    sleep 2
    waited=$((waited + 2))
  done
  say "$wait_org/$AGENT_WAIT_FOR_SERVICE runs on this node"
fi
say "done: the Horizon agent runs ($agent_bin); hzn is $hzn_bin"
