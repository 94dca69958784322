# etcd 3.4 as servers/etcd.sh, with authentication on, as the description's
# security (ApiKey: the Authorization header on every operation) assumes:
# a root user, auth enabled, and both tools given root's token (simple token,
# valid two hours) through the API's own /v3/auth/authenticate.

. "$RS_DIR/servers/etcd.sh"
NAME=etcd-auth
PORT=${ETCD_AUTH_PORT:-23791}
PEER_PORT=${ETCD_AUTH_PEER_PORT:-23801}
BASE_URL=http://127.0.0.1:$PORT
D=$WORK/etcd-auth
SPEC=$D/rpc.swagger.json
ETCD_EXTRA=(--auth-token-ttl 7200)
CONFORM_PLACEHOLDER=()   # etcd-auth has a real token (CONFORM_ARGS)
CONFORM_NO_AUTH=()       # and enforces it
ETCD_TOKEN=

# With the token while it works; without it once a tool has turned authentication
# off (the token is then refused as invalid, and no token is needed).
ecall() {
  local out
  out=$(curl -sS --max-time 10 -X POST ${ETCD_TOKEN:+-H "Authorization: $ETCD_TOKEN"} "$BASE_URL$1" -d "$2")
  if [[ $out == *"invalid auth token"* ]]; then
    out=$(curl -sS --max-time 10 -X POST "$BASE_URL$1" -d "$2")
  fi
  printf '%s\n' "$out"
}

eval "etcd_seed() $(declare -f srv_seed | sed 1d)"
srv_seed() {
  # A token of an earlier instance must not be sent: etcd 3.4 waits until it has
  # applied the raft index a simple token names (".17"), so such a request hangs.
  ETCD_TOKEN=
  etcd_seed
  ecall /v3/auth/user/add '{"name":"root","password":"real-servers-root"}' >/dev/null
  ecall /v3/auth/user/grant '{"user":"root","role":"root"}' >/dev/null
  ecall /v3/auth/enable '{}' >/dev/null
  ETCD_TOKEN=$(ecall /v3/auth/authenticate '{"name":"root","password":"real-servers-root"}' | jq -r .token)
  CONFORM_ARGS=(-H "Authorization: $ETCD_TOKEN")
  ST_ARGS=(-H "Authorization: $ETCD_TOKEN")
}
