# etcd 3.4 (Debian 12 package etcd-server), its grpc-gateway JSON API on loopback.
# Description: Documentation/dev-guide/apispec/swagger/rpc.swagger.json of the
# etcd repository at the tag of the installed version (v3.4.23 on Debian 12),
# Swagger 2.0, unedited. The etcd server does not serve it itself.

NAME=etcd
PORT=${ETCD_PORT:-23790}
PEER_PORT=${ETCD_PEER_PORT:-23800}
BASE_URL=http://127.0.0.1:$PORT
D=$WORK/etcd
SPEC=$D/rpc.swagger.json
ETCD_GIT=${ETCD_GIT:-/work/.mirror/etcd-io+etcd/repo}   # a clone (or bare git dir) of etcd-io/etcd
CONFORM_ARGS=()
ST_ARGS=()
ETCD_EXTRA=()
# For TOOLS=conform-excluding: the two operations that end a run (auth off for
# good, or the server dead: docs/real-servers.md).
CONFORM_EXCLUDE=(--exclude AuthDisable --exclude Alarm)

srv_install() {
  apt_install etcd-server curl jq
  mkdir -p "$D"
  local ver
  ver=$(etcd --version | awk '/etcd Version/{print $3}')
  if [ ! -s "$SPEC" ]; then
    if [ -d "$ETCD_GIT" ]; then
      git --git-dir="$ETCD_GIT" show "v$ver:Documentation/dev-guide/apispec/swagger/rpc.swagger.json" >"$SPEC"
    else
      say "etcd: no etcd git at ETCD_GIT=$ETCD_GIT; using the copy in specs/ (v3.4.23)"
      cp "$RS_DIR/specs/etcd-v3.4.23-rpc.swagger.json" "$SPEC"
    fi
  fi
  say "etcd $ver, description $(sha256sum "$SPEC" | cut -c1-16)"
}

srv_start() {
  rm -rf "$D/data"
  mkdir -p "$D"
  etcd --name rs --data-dir "$D/data" "${ETCD_EXTRA[@]}" \
    --listen-client-urls "$BASE_URL" --advertise-client-urls "$BASE_URL" \
    --listen-peer-urls "http://127.0.0.1:$PEER_PORT" \
    --initial-advertise-peer-urls "http://127.0.0.1:$PEER_PORT" \
    --initial-cluster "rs=http://127.0.0.1:$PEER_PORT" >"$D/etcd.log" 2>&1 &
  echo $! >"$D/pid"
  wait_http "$BASE_URL/health"
}

srv_stop() { stop_pid "$D/pid"; }

b64() { printf '%s' "$1" | base64 -w0; }
ecall() { curl -sS --max-time 10 -X POST "$BASE_URL$1" -d "$2"; }

# Seed through the API: five keys under seed/, a user and a role.
srv_seed() {
  local i
  for i in 1 2 3 4 5; do
    ecall /v3/kv/put "{\"key\":\"$(b64 "seed/k$i")\",\"value\":\"$(b64 "value $i")\"}" >/dev/null
  done
  ecall /v3/auth/role/add '{"name":"seedrole"}' >/dev/null
  ecall /v3/auth/user/add '{"name":"seeduser","password":"seed-pass"}' >/dev/null
  ecall /v3/auth/user/grant '{"user":"seeduser","role":"seedrole"}' >/dev/null
}

# The seeded data as it stands: keys (value, mod_revision), users, roles.
srv_dump() {
  {
    ecall /v3/kv/range "{\"key\":\"$(b64 seed/)\",\"range_end\":\"$(b64 seed0)\"}" |
      jq -c '[.kvs[]? | {key: (.key|@base64d), value: (.value|@base64d), mod_revision}]'
    ecall /v3/auth/user/get '{"name":"seeduser"}' | jq -c '{user_roles: .roles}'
    ecall /v3/auth/role/get '{"role":"seedrole"}' | jq -c '{seedrole_perm: .perm, error}'
    ecall /v3/kv/range '{"key":"AA==","range_end":"AA==","count_only":true}' | jq -c '{all_keys: .count}'
  }
}
# Lines of srv_dump that must not change (the total key count may grow).
SURVIVE_FILTER='grep -v all_keys'
