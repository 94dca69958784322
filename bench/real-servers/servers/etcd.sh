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
# Every operation of etcd's description is a POST (gRPC over grpc-gateway), so
# safe mode, which sends a POST only where the description says it creates,
# sends none of them. These are the operations of etcd v3.4 that only read,
# named by operationId for `conform run --read-only` (safe mode then sends
# them); the default Conform run for etcd passes them (TOOLS=conform), and
# TOOLS=conform-no-read-only runs without them. Each is a read by etcd's own
# words (the summaries of rpc.swagger.json, from the comments of
# etcdserver/etcdserverpb/rpc.proto at v3.4.23) and by its server code
# (etcdserver/v3_server.go, etcdserver/api/v3rpc/maintenance.go, etcdserver/
# apply.go at v3.4.23); docs/real-servers.md has the table:
#   Range              "Range gets the keys in the range from the key-value store."
#   LeaseTimeToLive(2) "LeaseTimeToLive retrieves lease information." (/v3/lease/timetolive, /v3/kv/lease/timetolive)
#   LeaseLeases(2)     "LeaseLeases lists all existing leases." (/v3/lease/leases, /v3/kv/lease/leases)
#   MemberList         "MemberList lists all the members in the cluster."
#   Status             "Status gets the status of the member."
#   HashKV             "HashKV computes the hash of all MVCC keys up to a given revision." (/v3/maintenance/hash; Hash, the same path in rpc.proto, reads too)
#   UserGet, UserList  "gets detailed user information", "gets a list of all users"
#   RoleGet, RoleList  "gets detailed role information", "gets lists of all roles"
#   Watch              "Watch watches for events happening or that have happened." A
#                      stream (grpc-gateway holds the answer open) that only reads:
#                      etcdserver/api/v3rpc/watch.go at v3.4.23 creates watchers on the
#                      MVCC store's watchable view, with no raft proposal and nothing
#                      stored; they end with the connection. Each valid request costs
#                      the run a --timeout.
# Left out, as they write or act: Put, DeleteRange, Txn (may write), Compact,
# Alarm (GET, ACTIVATE and DEACTIVATE are one operation), Defragment, Snapshot
# (a stream of the whole backend), LeaseKeepAlive (renews a lease), LeaseGrant, LeaseRevoke(2), LeaseKeepAlive, AuthEnable,
# AuthDisable, Authenticate (issues a token), the user and role add, delete,
# grant, revoke and changepw, the member add, remove, update and promote,
# MoveLeader. etcd 3.4 has no AuthStatus (3.5 added it).
CONFORM_READ_ONLY=()
for op in Range LeaseTimeToLive LeaseTimeToLive2 LeaseLeases LeaseLeases2 MemberList \
          Status HashKV UserGet UserList RoleGet RoleList Watch; do
  CONFORM_READ_ONLY+=(--read-only "$op")
done
ETCD_EXTRA=()
# etcd as installed has authentication off, though its description asks for
# the ApiKey on every operation: the default Conform run says so with
# --no-auth (every generated request without a credential; the auth checks'
# probes still go, judged by their answers alone). etcd-auth.sh empties it
# and gives root's token instead.
CONFORM_NO_AUTH=(--no-auth)
# For TOOLS=conform-placeholder (etcd with authentication off only; etcd-auth.sh
# empties it): the description declares the ApiKey (Authorization) on every
# operation, and Conform with no credential sends only the auth checks'
# requests. A placeholder value is how a user tells Conform to send its
# generated requests to a server that does not enforce the declared scheme.
# etcd 3.4 with authentication off ignores it only on MemberList, Status and the
# lease reads; Range, the auth reads (401) and HashKV (500) refuse a token they
# do not know (docs/real-servers.md, "etcd with a placeholder credential").
CONFORM_PLACEHOLDER=(-H 'Authorization: placeholder-auth-off')
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
