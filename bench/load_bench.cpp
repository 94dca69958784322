// Loading descriptions: the two readers alone (text into core::node) and the
// whole loader (text into openapi::api_spec), on the shipped description and
// on a big generated one. Figures and commands: docs/performance.md.
//
//   python3 bench/make_big_spec.py 520 > /tmp/big.json
//   CONFORM_BIG_SPEC=/tmp/big.json build-release/bench/load_bench
//
// Without CONFORM_BIG_SPEC the big-description benchmarks are skipped with a
// message saying why.

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "core/parse.hpp"
#include "openapi/loader.hpp"

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string shipped = std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml";

std::string big_path() {
  const char* p = std::getenv("CONFORM_BIG_SPEC");
  return p != nullptr ? p : "";
}

void parse(benchmark::State& state, const std::string& path) {
  if (path.empty()) {
    state.SkipWithError("set CONFORM_BIG_SPEC to a description (bench/make_big_spec.py)");
    return;
  }
  const std::string text = read(path);
  for (auto _ : state) {
    auto d = conform::core::parse_document(text, path);
    if (d.error) state.SkipWithError(conform::core::to_string(*d.error).c_str());
    benchmark::DoNotOptimize(d.root);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

void load(benchmark::State& state, const std::string& path) {
  if (path.empty()) {
    state.SkipWithError("set CONFORM_BIG_SPEC to a description (bench/make_big_spec.py)");
    return;
  }
  for (auto _ : state) {
    auto r = conform::openapi::load(path);
    if (!r.ok()) state.SkipWithError("the description does not load");
    benchmark::DoNotOptimize(r.spec);
  }
}

void bm_parse_shipped_yaml(benchmark::State& state) {
  parse(state, shipped);
}
void bm_load_shipped_yaml(benchmark::State& state) {
  load(state, shipped);
}
void bm_parse_big_json(benchmark::State& state) {
  parse(state, big_path());
}
void bm_load_big_json(benchmark::State& state) {
  load(state, big_path());
}

}  // namespace

BENCHMARK(bm_parse_shipped_yaml)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_load_shipped_yaml)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_parse_big_json)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_load_big_json)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
