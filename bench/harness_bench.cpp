// The harness's own cost per request, piece by piece: generating a request,
// validating a response body, running every check on an exchange, and one
// round trip to the in-process reference server (the transport floor).
// Run: build-release/bench/harness_bench  (see docs/performance.md)
#include <benchmark/benchmark.h>

#include <boost/json.hpp>
#include <rapidcheck.h>

#include <memory>

#include "generators/request.hpp"
#include "http/client.hpp"
#include "http/url.hpp"
#include "profile/loader.hpp"
#include "harness/auth.hpp"
#include "harness/build.hpp"
#include "schema/validator.hpp"
#include "openapi/loader.hpp"
#include "reference/server.hpp"
#include "suites/registry.hpp"

namespace {

using namespace conform;

/// Everything the benchmarks share, built once.
struct fixture {
  openapi::api_spec api;
  std::unique_ptr<reference::server> server;
  profile::target view;
  std::vector<harness::auth_choice> auth;

  static fixture& get() {
    static fixture f;
    return f;
  }

 private:
  fixture() {
    auto loaded = openapi::load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml");
    if (!loaded.ok()) throw std::runtime_error("spec does not load");
    api = std::move(*loaded.spec);
    server = std::make_unique<reference::server>(reference::server_config{});
    view = std::move(*profile::parse_profile(server->profile_yaml(), "reference").value);
  }
};

const openapi::operation& op_named(const char* id) {
  return *fixture::get().api.find_operation(id);
}

void bm_generate(benchmark::State& state, const char* operation_id, harness::request_kind mode) {
  auto& f = fixture::get();
  const auto& op = op_named(operation_id);
  auto choices = harness::credential_selector(f.api, f.view).auth_models(op);
  auto made = harness::make_generator(f.api, op, choices.front(), mode);
  if (!made.gen) {
    state.SkipWithError("no generator for this mode");
    return;
  }
  std::uint64_t seed = 1;
  for (auto _ : state) {
    auto shrinkable = (*made.gen)(rc::Random(seed++), 50);
    auto req = shrinkable.value();
    auto wire = harness::to_http_request(f.api, op, choices.front(), req, "bench-key");
    benchmark::DoNotOptimize(wire);
  }
  state.SetItemsProcessed(state.iterations());
}
constexpr auto valid = harness::request_kind::valid;
constexpr auto invalid = harness::request_kind::invalid;
BENCHMARK_CAPTURE(bm_generate, valid_listCampaigns, "listCampaigns", valid);
BENCHMARK_CAPTURE(bm_generate, valid_createCampaign, "createCampaign", valid);
BENCHMARK_CAPTURE(bm_generate, valid_importContacts, "importContacts", valid);
BENCHMARK_CAPTURE(bm_generate, valid_getVoiceSession, "getVoiceSession", valid);
BENCHMARK_CAPTURE(bm_generate, invalid_listCampaigns, "listCampaigns", invalid);
BENCHMARK_CAPTURE(bm_generate, invalid_createCampaign, "createCampaign", invalid);
BENCHMARK_CAPTURE(bm_generate, invalid_updateKnowledgeBaseSource, "updateKnowledgeBaseSource",
                  invalid);

/// bench/wire.sh's description (bench/wire/api.yaml), and a generator for
/// each of its (operation, mode) cells, as a `--url` run without
/// credentials plans them.
struct wire_fixture {
  openapi::api_spec api;
  profile::target view;
  std::vector<std::vector<harness::auth_choice>> auth;  // per operation
  struct cell {
    const openapi::operation* op;
    const harness::auth_choice* auth;
    rc::Gen<generators::generated_request> gen;
  };
  std::vector<cell> cells;

  static wire_fixture& get() {
    static wire_fixture f;
    return f;
  }

 private:
  wire_fixture() {
    auto loaded = openapi::load(std::string(CONFORM_BENCH_DIR) + "/wire/api.yaml");
    if (!loaded.ok()) throw std::runtime_error("bench/wire/api.yaml does not load");
    api = std::move(*loaded.spec);
    view.base_url = *http::parse_url("http://127.0.0.1:8080").value;
    harness::credential_selector selector(api, view);
    for (const auto& op : api.operations) auth.push_back(selector.auth_models(op, true));
    for (std::size_t o = 0; o < api.operations.size(); ++o) {
      for (auto kind : {harness::request_kind::valid, harness::request_kind::invalid}) {
        auto made = harness::make_generator(api, api.operations[o], auth[o].front(), kind);
        if (made.gen) cells.push_back({&api.operations[o], &auth[o].front(), std::move(*made.gen)});
      }
    }
  }
};

/// bench/wire.sh's requests: every (operation, mode) cell of its
/// description in turn, at the sizes `--examples 5000` spreads over 0..100,
/// each value taken once as the engine does (the shrink tree kept).
void bm_generate_wire(benchmark::State& state) {
  auto& f = wire_fixture::get();
  std::uint64_t seed = 1, n = 0;
  for (auto _ : state) {
    const auto& c = f.cells[n % f.cells.size()];
    const int size = static_cast<int>((n / f.cells.size()) % 101);
    ++n;
    auto tree = c.gen(rc::Random(seed++), size);
    auto req = tree.value();
    benchmark::DoNotOptimize(req);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(std::to_string(f.cells.size()) + " cells");
}
BENCHMARK(bm_generate_wire);

/// A real page of 25 campaigns from the reference server.
std::string campaign_page() {
  auto& f = fixture::get();
  http::client client(f.view.base_url, {});
  http::request req;
  req.target = "/bulk_call_campaigns?per_page=25";
  for (const auto& c : f.view.credentials) {
    if (c.name == "t1-all") req.add_header("X-Api-Key", c.value.reveal());
  }
  auto r = client.send(0, req);
  if (!r.ok() || r.value().status != 200) throw std::runtime_error("no campaign page");
  return r.value().body;
}

void bm_validate_page(benchmark::State& state) {
  const auto& op = op_named("listCampaigns");
  const auto* schema = op.find_response(200)->content.front().schema;
  const auto body = boost::json::parse(campaign_page());
  for (auto _ : state) {
    benchmark::DoNotOptimize(schema::is_valid(*schema, body));
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("25 campaigns, " + std::to_string(boost::json::serialize(body).size()) + " bytes");
}
BENCHMARK(bm_validate_page);

void bm_parse_and_check_page(benchmark::State& state) {
  auto& f = fixture::get();
  const auto& op = op_named("listCampaigns");
  const auto catalogue = suites::builtin_checks();
  const generators::request_mode valid;
  auto choices = harness::credential_selector(f.api, f.view).auth_models(op);
  http::request req;
  http::result result;
  http::response resp;
  resp.status = 200;
  resp.body = campaign_page();
  resp.headers.push_back({http::field::content_type, "Content-Type", "application/json"});
  resp.headers.push_back({http::field::unknown, "X-Request-Id", "req_1"});
  result.outcome = resp;
  for (auto _ : state) {
    boost::system::error_code ec;
    auto json = boost::json::parse(result.value().body, ec);
    harness::exchange e{f.api, op, choices.front().model, valid, req, result, &json, {}};
    for (const auto& c : catalogue.all()) {
      if (c.exchange) benchmark::DoNotOptimize(c.exchange->run(e));
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(bm_parse_and_check_page);

void bm_round_trip_health(benchmark::State& state) {
  auto& f = fixture::get();
  http::client client(f.view.base_url, {});
  http::request req;
  req.target = "/health";
  for (auto _ : state) {
    auto r = client.send(0, req);
    if (!r.ok()) state.SkipWithError("transport error");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(bm_round_trip_health);

}  // namespace

BENCHMARK_MAIN();
