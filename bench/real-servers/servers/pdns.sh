# PowerDNS Authoritative Server 4.7 (Debian 12 packages pdns-server and
# pdns-backend-sqlite3), its HTTP API on loopback, DNS on 127.0.0.1:5300.
# Description: the Swagger 2.0 document the running server publishes at
# /api/docs (docs/http-api/swagger/authoritative-api-swagger.yaml of the
# PowerDNS repository), downloaded from the server, unedited.

NAME=pdns
PORT=${PDNS_PORT:-8081}
DNS_PORT=${PDNS_DNS_PORT:-5300}
BASE_URL=http://127.0.0.1:$PORT/api/v1     # the description's basePath
D=$WORK/pdns
SPEC=$D/authoritative-api-swagger.yaml
PDNS_KEY=${PDNS_KEY:-real-servers-key}
export PDNS_API_KEY=$PDNS_KEY
CONFORM_ARGS=(-H "X-API-Key: $PDNS_KEY")
ST_ARGS=(-H "X-API-Key: $PDNS_KEY")

srv_install() {
  apt_install pdns-server pdns-backend-sqlite3 sqlite3 curl jq
  mkdir -p "$D"
}

srv_start() {
  rm -f "$D/pdns.sqlite3"
  sqlite3 "$D/pdns.sqlite3" </usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql
  cat >"$D/pdns.conf" <<CONF
launch=gsqlite3
gsqlite3-database=$D/pdns.sqlite3
local-address=127.0.0.1
local-port=$DNS_PORT
api=yes
api-key=$PDNS_KEY
webserver=yes
webserver-address=127.0.0.1
webserver-port=$PORT
webserver-allow-from=127.0.0.0/8
socket-dir=$D
guardian=no
daemon=no
disable-syslog=yes
CONF
  pdns_server --config-dir="$D" >"$D/pdns.log" 2>&1 &
  echo $! >"$D/pid"
  wait_http "http://127.0.0.1:$PORT/api/v1/servers" || return 1
  curl -sS --max-time 10 -H "X-API-Key: $PDNS_KEY" "http://127.0.0.1:$PORT/api/docs" >"$SPEC.new"
  [ -s "$SPEC" ] && ! cmp -s "$SPEC" "$SPEC.new" && say "pdns: /api/docs changed since the last download"
  mv "$SPEC.new" "$SPEC"
}

srv_stop() { stop_pid "$D/pid"; }

pcall() {
  local m=$1 p=$2; shift 2
  curl -sS --max-time 10 -X "$m" -H "X-API-Key: $PDNS_KEY" -H 'Content-Type: application/json' \
    "$BASE_URL$p" "$@"
}

# Seed through the API: two zones with records, a TSIG key, a metadata item.
srv_seed() {
  local z
  for z in seed-one.example. seed-two.example.; do
    pcall POST /servers/localhost/zones -d "{\"name\":\"$z\",\"kind\":\"Native\",\"nameservers\":[\"ns1.$z\"],
      \"rrsets\":[{\"name\":\"www.$z\",\"type\":\"A\",\"ttl\":300,\"changetype\":\"REPLACE\",
      \"records\":[{\"content\":\"192.0.2.10\",\"disabled\":false}]},
      {\"name\":\"$z\",\"type\":\"TXT\",\"ttl\":300,\"changetype\":\"REPLACE\",
      \"records\":[{\"content\":\"\\\"seeded\\\"\",\"disabled\":false}]}]}" >/dev/null
  done
  pcall POST /servers/localhost/tsigkeys -d '{"name":"seed-key","algorithm":"hmac-sha256"}' >/dev/null
  pcall POST /servers/localhost/zones/seed-one.example./metadata \
    -d '{"kind":"X-SEED","metadata":["kept"]}' >/dev/null
}

# The seeded data as it stands (serials and edited_serial are left out: the
# zone's own counters); the zone count may grow with what a tool creates.
srv_dump() {
  local z
  for z in seed-one.example. seed-two.example.; do
    pcall GET "/servers/localhost/zones/$z" |
      jq -c '{name, kind, dnssec, nsec3param, masters, account, api_rectify,
              rrsets: ([.rrsets[]? | {name, type, ttl, records: (.records|sort_by(.content))}] | sort_by(.name, .type)), error}'
  done
  pcall GET /servers/localhost/tsigkeys/seed-key. | jq -c '{tsig: .name, algorithm, key, error}'
  pcall GET /servers/localhost/zones/seed-one.example./metadata/X-SEED | jq -c '{meta: .metadata, error}'
  pcall GET /servers/localhost/zones | jq -c '{all_zones: length}'
}
SURVIVE_FILTER='grep -v all_zones'
