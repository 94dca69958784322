# LoopBack 4's Todo application (npm @loopback/example-todo, the LoopBack
# project's tutorial application), its in-memory store kept in data/db.json.
# Description: the OpenAPI 3.0 document the running server publishes at
# /openapi.json, downloaded from the server, unedited.
# Its createTodo geocodes a remindAtAddress through an outside service,
# unreachable here: such requests fail (see docs/real-servers.md).

NAME=loopback
PORT=${LOOPBACK_PORT:-30300}
BASE_URL=http://127.0.0.1:$PORT
D=$WORK/loopback
SPEC=$D/openapi.json
LOOPBACK_VERSION=${LOOPBACK_VERSION:-6.0.0}
CONFORM_ARGS=()
ST_ARGS=()

srv_install() {
  command -v node >/dev/null || apt_install nodejs npm
  apt_install curl jq
  mkdir -p "$D/app"
  if [ ! -f "$D/app/node_modules/@loopback/example-todo/dist/index.js" ]; then
    (cd "$D/app" && npm install --no-audit --no-fund "@loopback/example-todo@$LOOPBACK_VERSION" >&2)
  fi
}

srv_start() {
  rm -rf "$D/run" && mkdir -p "$D/run/data"
  (cd "$D/run" && HOST=127.0.0.1 PORT=$PORT \
    exec node "$D/app/node_modules/@loopback/example-todo/dist/index.js" >"$D/loopback.log" 2>&1) &
  echo $! >"$D/pid"
  wait_http "$BASE_URL/openapi.json" || return 1
  curl -sS --max-time 10 "$BASE_URL/openapi.json" >"$SPEC"
}

srv_stop() { stop_pid "$D/pid"; }

# Seed through the API: four todos.
srv_seed() {
  local i
  for i in 1 2 3 4; do
    curl -sS --max-time 10 -X POST -H 'Content-Type: application/json' "$BASE_URL/todos" \
      -d "{\"title\":\"seeded todo $i\",\"desc\":\"kept $i\",\"isComplete\":false}" >/dev/null
  done
}

# The seeded todos as they stand (each by id, then the count).
srv_dump() {
  local i
  for i in 1 2 3 4; do
    curl -sS --max-time 10 "$BASE_URL/todos/$i" | jq -c '.'
  done
  curl -sS --max-time 10 "$BASE_URL/todos/count" | jq -c '{all_todos: .count}'
}
SURVIVE_FILTER='grep -v all_todos'
