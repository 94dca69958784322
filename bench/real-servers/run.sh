#!/usr/bin/env bash
# Conform and Schemathesis 3.x on real open-source API servers, each with the
# description its project publishes, unedited (issue 37 item 6). Not run in CI.
#
#   bash bench/real-servers/run.sh [SERVER...]      # default: etcd pdns loopback
#
# For each server and each tool: install (once), start on loopback with fresh
# data, seed it through its own API, dump the seeded data, run the tool on
# seeds 1-3, dump again and compare, stop. Then summarize.py writes the table.
# Environment: CONFORM (default build/conform), ST (Schemathesis launcher made
# by schemathesis.sh), TOOLS (default "conform schemathesis"; "conform-destructive"
# adds Conform with --allow-destructive on a fresh server, "conform-no-read-only"
# Conform without the server's --read-only list, "conform-placeholder" Conform with
# the server's placeholder credential CONFORM_PLACEHOLDER, etcd with auth off), SEEDS, OUT, WORK. The default
# Conform run passes the server's CONFORM_READ_ONLY (etcd: its read-only POSTs).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

SERVERS=("$@")
[ ${#SERVERS[@]} -eq 0 ] && SERVERS=(etcd etcd-auth pdns loopback)
TOOLS=${TOOLS:-conform schemathesis}
mkdir -p "$OUT" "$WORK"

if [[ " $TOOLS " == *" schemathesis "* ]] && [ ! -x "$ST" ]; then
  bash "$RS_DIR/schemathesis.sh" || { say "Schemathesis could not be set up"; exit 1; }
fi
[[ " $TOOLS " == *" conform "* ]] && [ ! -x "$CONFORM" ] && { say "no $CONFORM"; exit 1; }

for server in "${SERVERS[@]}"; do
  (
    CONFORM_READ_ONLY=(); CONFORM_PLACEHOLDER=(); CONFORM_NO_AUTH=()
    . "$RS_DIR/servers/$server.sh"
    d=$OUT/$NAME
    mkdir -p "$d"
    srv_install || { say "$NAME: install failed"; exit 1; }
    for tool in $TOOLS; do
      say "$NAME / $tool: start, seed"
      srv_stop
      srv_start || { say "$NAME: did not start"; srv_stop; exit 1; }
      rm -f "$d/$tool-died.txt"
      srv_seed
      cp "$SPEC" "$d/$(basename "$SPEC")"
      srv_dump >"$d/$tool-before.txt"
      last=none
      for seed in $SEEDS; do
        sleep 1
        if ! kill -0 "$(cat "$D/pid" 2>/dev/null)" 2>/dev/null; then
          # It died during the last seed: say so, and start it again, seeded anew.
          echo "$NAME died during seed $last; started again, seeded anew, before seed $seed" >>"$d/$tool-died.txt"
          say "$NAME died during $tool seed $last: restart"
          srv_stop; srv_start && srv_seed
        fi
        last=$seed
        case $tool in
          # The server's read-only operations (CONFORM_READ_ONLY: etcd's), if it names any.
          # And --no-auth where the server does not enforce its description's
          # security (CONFORM_NO_AUTH: etcd with authentication off).
          conform) run_conform "$d" "$seed" "${CONFORM_READ_ONLY[@]}" "${CONFORM_NO_AUTH[@]}" "${CONFORM_ARGS[@]}" ;;
          # Not in the default TOOLS: Conform without --read-only (etcd: nothing is sent).
          conform-no-read-only) run_conform "$d" "$seed" conform-no-read-only "${CONFORM_ARGS[@]}" ;;
          # Not in the default TOOLS: Conform allowed to write anywhere.
          # Not in the default TOOLS: Conform without the operations that end the run
          # (CONFORM_EXCLUDE, per server: etcd's AuthDisable and Alarm).
          conform-excluding) run_conform "$d" "$seed" conform-excluding "${CONFORM_EXCLUDE[@]}" "${CONFORM_ARGS[@]}" ;;
          # Not in the default TOOLS: Conform with the server's placeholder credential
          # (CONFORM_PLACEHOLDER; etcd: auth off ignores Authorization) and its --read-only list.
          conform-placeholder) run_conform "$d" "$seed" conform-placeholder "${CONFORM_PLACEHOLDER[@]}" "${CONFORM_READ_ONLY[@]}" "${CONFORM_ARGS[@]}" ;;
          conform-destructive) run_conform "$d" "$seed" conform-destructive --allow-destructive "${CONFORM_ARGS[@]}" ;;
          schemathesis) run_schemathesis "$d" "$seed" "${ST_ARGS[@]}" ;;
        esac
      done
      sleep 1
      if ! kill -0 "$(cat "$D/pid" 2>/dev/null)" 2>/dev/null; then
        echo "$NAME died during seed $last" >>"$d/$tool-died.txt"
        echo "(the server had died: nothing to dump)" >"$d/$tool-after.txt"
      else
        srv_dump >"$d/$tool-after.txt"
      fi
      if diff <(eval "$SURVIVE_FILTER" <"$d/$tool-before.txt") \
              <(eval "$SURVIVE_FILTER" <"$d/$tool-after.txt") >"$d/$tool-survival.diff" &&
         [ ! -f "$d/$tool-died.txt" ]; then
        echo yes >"$d/$tool-survived.txt"
      else
        echo "no$([ -f "$d/$tool-died.txt" ] && echo ' (the server died)')" >"$d/$tool-survived.txt"
      fi
      say "$NAME / $tool: seeded data survived: $(cat "$d/$tool-survived.txt")"
      srv_stop
    done
  )
done
/usr/bin/python3 "$RS_DIR/summarize.py" "$OUT" | tee "$OUT/summary.md"
