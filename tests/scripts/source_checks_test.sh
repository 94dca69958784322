#!/usr/bin/env bash
# The source checks of scripts/ against planted defects they must catch and
# correct variants they must pass, each file judged alone (same verdict
# every time: the checks read text, nothing else).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0

# expect VERDICT CHECK NAME TEXT: CHECK on a file holding TEXT exits 0 (pass) or not (fail).
expect() {
  local verdict=$1 check=$2 name=$3 text=$4
  printf '%s\n' "$text" >"$dir/$name"
  local got=pass
  bash "$root/scripts/$check" "$dir/$name" >/dev/null 2>&1 || got=fail
  if [ "$got" != "$verdict" ]; then
    echo "FAIL: $check on $name: expected $verdict, got $got"
    failures=$((failures + 1))
  fi
}

u=check-using-namespace.sh
expect fail $u file_scope.cpp 'using namespace std;'
expect fail $u namespace_scope.cpp $'namespace conform {\nusing namespace std::chrono;\n}'
expect pass $u literals.cpp $'namespace {\nusing namespace std::chrono_literals;\nusing namespace std::literals;\n}'
expect fail $u in_header.hpp $'#pragma once\nusing   namespace conform::core;'
expect pass $u in_function.cpp $'void f() {\n  using namespace std::chrono;\n}'
expect pass $u declaration.cpp $'using std::string;\nusing clock = std::chrono::steady_clock;'
expect pass $u comment.cpp '// using namespace std; would leak'

c=check-citations.sh
expect fail $c rule_text.cpp '  "section 4.3.1; D4.1"},'
expect fail $c comment.cpp '// Limits are per credential (D6.2).'
expect fail $c bare_id.hpp 'const char* why = "see D6";'
expect pass $c placeholder.hpp '/// "D<n>.<m>: <reason>" is a decision'
expect pass $c hex.cpp 'if (code >= 0xD800 && code <= 0xDBFF) {'
expect pass $c names.cpp 'EVP_PKEY_ED25519; int kD1 = D_MAX;'
expect pass $c sections.cpp '"section 8.2; x-pagination"'

o=check-outcome.sh
expect fail $o optional_ref.hpp 'std::optional<int> parse(std::string_view text, std::string& why);'
expect fail $o optional_ptr.cpp $'std::optional<int> parse(std::string_view text,\n                         std::string* why) {'
expect fail $o bool_error.hpp 'bool write_file(const std::string& path, std::string& error);'
expect fail $o defaulted.hpp 'int f(std::string *reason = nullptr);'
expect fail $o lambda.cpp '  auto take = [&](std::string& message) { return false; };'
expect pass $o outcome.hpp 'core::outcome<int> parse(std::string_view text);'
expect pass $o const_input.hpp 'void not_run(const std::string& why, const std::string& error);'
expect pass $o value_out.hpp 'core::status value(std::string& out);'
expect pass $o member.cpp $'  std::string error_;\n  std::string& why = out.why;'
expect pass $o comment.hpp '/// Formerly bool f(std::string& error), before core::outcome.'

if [ "$failures" -ne 0 ]; then exit 1; fi
echo "source checks: every planted defect caught, every correct variant passed"
