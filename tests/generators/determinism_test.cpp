// The requests a seed gives, pinned. A run's verdicts rest on the requests
// its seed draws (a failure names its seed and example so that a rerun
// finds it again), and shrinking rests on the tree each draw comes with: a
// change made for speed must give the same bytes and the same shrinks. Each
// test folds every field of many requests (and of the shrinks a walk like
// the engine's visits) into a digest computed before the generators were
// made faster; a digest that moves means the values moved.

#include "tests/generators/rc_support.hpp"

#include <boost/json/serialize.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "generators/invalid.hpp"
#include "generators/request.hpp"
#include "generators/value.hpp"
#include "openapi/loader.hpp"

namespace conform::generators {
namespace {

/// FNV-1a, 64 bits: a digest of everything folded in, in order.
class digest {
 public:
  void add(std::string_view s) {
    for (unsigned char c : s) {
      h_ ^= c;
      h_ *= 0x100000001b3ull;
    }
    h_ ^= 0xff;  // a separator, so that "ab","c" and "a","bc" differ
    h_ *= 0x100000001b3ull;
  }
  void add(std::uint64_t n) { add(std::to_string(n)); }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ull;
};

void fold(digest& d, const generated_request& r) {
  d.add(static_cast<std::uint64_t>(r.method));
  d.add(r.path);
  for (const auto* pairs : {&r.query, &r.headers, &r.cookies, &r.fixtures_used}) {
    d.add(pairs->size());
    for (const auto& [k, v] : *pairs) {
      d.add(k);
      d.add(v);
    }
  }
  for (const auto& name : r.reserved_query) d.add(name);
  d.add(r.body);
  d.add(r.content_type);
  d.add(r.mode.key());
  d.add(r.mode.description);
  d.add(r.mode.value_mutation ? static_cast<std::uint64_t>(*r.mode.value_mutation) + 1 : 0);
  d.add(static_cast<std::uint64_t>(r.body_from_example) * 2 + r.documented);
}

void fold(digest& d, const boost::json::value& v) {
  d.add(boost::json::serialize(v));
}

void fold(digest& d, const invalid_value& v) {
  d.add(v.json ? boost::json::serialize(*v.json) : v.raw);
  d.add(static_cast<std::uint64_t>(v.kind));
  d.add(v.pointer);
  d.add(v.description);
}

/// The value of `s`, or what stopped it.
template <typename T>
void fold(digest& d, const rc::Shrinkable<T>& s) {
  try {
    fold(d, s.value());
  } catch (const std::exception& ex) {
    d.add(std::string("threw: ") + ex.what());
  }
}

std::optional<std::string> resource_fixture(const openapi::parameter& p) {
  if (p.resource) return "1001";
  return std::nullopt;
}

/// Shrinks `root` as the engine does (the first child that still "fails"
/// replaces the current value, within a budget of candidates), with a
/// failure that holds while the request keeps its mode (and a rule of thumb).
/// Folds every candidate visited and the minimal value reached.
void shrink_walk(digest& d, rc::Shrinkable<generated_request> root, unsigned budget) {
  const std::string key = root.value().mode.key();
  std::uint64_t visited = 0;
  bool progressed = true;
  while (progressed && budget > 0) {
    progressed = false;
    auto children = root.shrinks();
    while (budget > 0) {
      auto child = children.next();
      if (!child) break;
      --budget;
      ++visited;
      fold(d, *child);
      std::optional<generated_request> v;
      try {
        v = child->value();
      } catch (const std::exception&) {
        continue;
      }
      // "Still failing": the same mode, and a path and body whose lengths
      // together are not one past a multiple of three (an arbitrary rule,
      // so that walks stop at varied places, not only at the minimum).
      if (v->mode.key() == key && (v->path.size() + v->body.size()) % 3 != 1) {
        root = std::move(*child);
        progressed = true;
        break;
      }
    }
  }
  d.add(visited);
  fold(d, root);
}

/// Every shrink of `root` and of its first shrink, up to `budget` in all.
template <typename T>
void shrinks_of(digest& d, const rc::Shrinkable<T>& root, unsigned budget) {
  std::optional<rc::Shrinkable<T>> first;
  auto children = root.shrinks();
  while (budget > 0) {
    auto child = children.next();
    if (!child) break;
    --budget;
    fold(d, *child);
    if (!first) first = *child;
  }
  if (!first) return;
  auto grandchildren = first->shrinks();
  while (budget > 0) {
    auto child = grandchildren.next();
    if (!child) break;
    --budget;
    fold(d, *child);
  }
}

struct digests {
  std::uint64_t values = 0, shrinks = 0;
};

/// Every operation of `file`, valid and invalid: `seeds` requests each, at
/// the sizes a run of `seeds` examples spreads over 0..100; and a shrink
/// walk of the first `walks` of them.
digests of_spec(const std::string& file, std::uint64_t seeds, std::uint64_t walks) {
  const auto loaded = openapi::load(file);
  EXPECT_TRUE(loaded.ok()) << file;
  if (!loaded.ok()) return {};
  digest values, shrinks;
  for (const auto& op : loaded.spec->operations) {
    values.add(op.operation_id);
    std::optional<rc::Gen<generated_request>> gens[2] = {valid_request(op, resource_fixture),
                                                         invalid_request(op, resource_fixture)};
    for (const auto& g : gens) {
      if (!g) {
        values.add("none");
        continue;
      }
      for (std::uint64_t seed = 0; seed < seeds; ++seed) {
        const int size = static_cast<int>(seed * 100 / (seeds - 1));
        const auto tree = (*g)(rc::Random(seed * 7919 + 1), size);
        fold(values, tree);
        if (seed < walks) shrink_walk(shrinks, tree, 60);
      }
    }
  }
  return {values.value(), shrinks.value()};
}

TEST(generated_requests, of_the_wire_bench_stay_what_their_seeds_gave) {
  const auto d = of_spec(std::string(CONFORM_SPEC_DIR) + "/../bench/wire/api.yaml", 200, 20);
  EXPECT_EQ(d.values, 0x8446c315ef09e5bdull) << std::hex << d.values;
  EXPECT_EQ(d.shrinks, 0x05392167931f0bd0ull) << std::hex << d.shrinks;
}

TEST(generated_requests, of_the_shipped_description_stay_what_their_seeds_gave) {
  const auto d = of_spec(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml", 100, 10);
  EXPECT_EQ(d.values, 0xf335dd8af90a13a0ull) << std::hex << d.values;
  EXPECT_EQ(d.shrinks, 0x697f11cc05c544f6ull) << std::hex << d.shrinks;
}

TEST(generated_values, of_every_keyword_stay_what_their_seeds_gave) {
  testing::schemas parse;
  digest values, shrinks;
  for (const auto& json : testing::keyword_schemas()) {
    const schema::schema& s = parse(json);
    values.add(json);
    const auto valid = valid_value(s);
    const auto invalid = invalid_values(s);
    for (std::uint64_t seed = 0; seed < 150; ++seed) {
      const int size = static_cast<int>(seed * 100 / 149);
      const auto good = valid(rc::Random(seed * 104729 + 3), size);
      fold(values, good);
      if (seed % 10 == 0) shrinks_of(shrinks, good, 40);
      if (!invalid) continue;
      const auto bad = (*invalid)(rc::Random(seed * 104729 + 5), size);
      fold(values, bad);
      if (seed % 10 == 0) shrinks_of(shrinks, bad, 40);
    }
  }
  EXPECT_EQ(values.value(), 0xd80d0504eb6b493eull) << std::hex << values.value();
  EXPECT_EQ(shrinks.value(), 0x747dbb093c9528baull) << std::hex << shrinks.value();
}

}  // namespace
}  // namespace conform::generators
