// The productive-schema analysis: a least fixed point, as for the productive
// symbols of a grammar, computed in depth-first post-order so that chains
// settle in one pass and cycles in a few.

#include "openapi/detail/recursion.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace conform::openapi::detail {

namespace {

using schema_node = schema::schema;
using schema::json_type;

/// Every subschema of `s`, in a fixed order.
std::vector<const schema_node*> children(const schema_node& s) {
  std::vector<const schema_node*> out;
  auto add = [&](const schema_node* c) {
    if (c != nullptr) out.push_back(c);
  };
  add(s.ref);
  for (const schema_node* c : s.all_of) add(c);
  for (const schema_node* c : s.any_of) add(c);
  for (const schema_node* c : s.one_of) add(c);
  add(s.items);
  for (const schema_node* c : s.prefix_items) add(c);
  for (const auto& p : s.properties) add(p.second);
  add(s.additional_properties);
  add(s.not_schema);
  return out;
}

class analysis {
 public:
  explicit analysis(const std::set<const schema_node*>& skip) : skip_(skip) {}

  /// Every schema reachable from `roots`, children before parents.
  void collect(const std::vector<const schema_node*>& roots) {
    std::unordered_set<const schema_node*> seen;
    std::vector<std::pair<const schema_node*, std::size_t>> stack;
    for (const schema_node* root : roots) {
      if (root == nullptr || !seen.insert(root).second) continue;
      stack.push_back({root, 0});
      while (!stack.empty()) {
        auto& [n, next] = stack.back();
        const auto kids = children(*n);
        if (next < kids.size()) {
          const schema_node* k = kids[next++];
          if (seen.insert(k).second) stack.push_back({k, 0});
          continue;
        }
        order_.push_back(n);
        stack.pop_back();
      }
    }
  }

  /// Marks productive schemas until nothing changes (or a pass cap: what is
  /// still unsettled then is given the benefit of the doubt).
  void settle() {
    for (int pass = 0; pass < 64; ++pass) {
      bool changed = false;
      for (const schema_node* n : order_) {
        if (productive_.count(n) != 0 || !productive_now(*n)) continue;
        productive_.insert(n);
        changed = true;
      }
      if (!changed) return;
    }
    productive_.insert(order_.begin(), order_.end());
  }

  /// The unproductive schemas, in collection order, parents first.
  std::vector<const schema_node*> unproductive() const {
    std::vector<const schema_node*> out;
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      if (productive_.count(*it) == 0) out.push_back(*it);
    }
    return out;
  }

  /// A subschema `n` cannot do without that is unproductive too.
  const schema_node* culprit(const schema_node& n) const {
    for (const schema_node* c : needed(n)) {
      if (!is(c)) return c;
    }
    return nullptr;
  }

 private:
  bool is(const schema_node* n) const {
    return n == nullptr || skip_.count(n) != 0 || productive_.count(n) != 0;
  }

  /// The subschemas a value of `n` must also be a value of, when no branch
  /// gives a way out (see productive_now).
  std::vector<const schema_node*> needed(const schema_node& n) const {
    std::vector<const schema_node*> out;
    if (n.ref != nullptr) out.push_back(n.ref);
    out.insert(out.end(), n.all_of.begin(), n.all_of.end());
    for (const auto* list : {&n.any_of, &n.one_of}) {
      if (!list->empty() &&
          std::none_of(list->begin(), list->end(), [&](const schema_node* b) { return is(b); })) {
        out.push_back(list->front());
      }
    }
    if (!own_productive(n)) {
      if (n.items != nullptr && !is(n.items)) out.push_back(n.items);
      for (const auto& name : n.required) {
        if (const schema_node* p = n.property(name); p != nullptr && !is(p)) out.push_back(p);
      }
    }
    return out;
  }

  /// Whether `n`'s own keywords admit a value without a nested one that
  /// is not yet known to be productive.
  bool own_productive(const schema_node& n) const {
    const schema::type_set t = n.types;
    if (t.any()) return true;
    for (auto scalar : {json_type::null, json_type::boolean, json_type::integer, json_type::number,
                        json_type::string}) {
      if (t.has(scalar)) return true;
    }
    if (t.has(json_type::array) &&
        (n.items == nullptr || !n.min_items || *n.min_items == 0 || is(n.items))) {
      return true;
    }
    if (t.has(json_type::object) &&
        std::all_of(n.required.begin(), n.required.end(),
                    [&](const std::string& name) { return is(n.property(name)); })) {
      return true;
    }
    return false;
  }

  bool productive_now(const schema_node& n) const {
    if (skip_.count(&n) != 0) return true;
    if (n.boolean != schema_node::boolean_form::none) return true;
    if (n.ref != nullptr) return is(n.ref);
    if (!std::all_of(n.all_of.begin(), n.all_of.end(),
                     [&](const schema_node* b) { return is(b); })) {
      return false;
    }
    for (const auto* list : {&n.any_of, &n.one_of}) {
      if (!list->empty() &&
          std::none_of(list->begin(), list->end(), [&](const schema_node* b) { return is(b); })) {
        return false;
      }
    }
    return own_productive(n);
  }

  const std::set<const schema_node*>& skip_;
  std::vector<const schema_node*> order_;
  std::unordered_set<const schema_node*> productive_;
};

}  // namespace

void check_base_cases(const std::vector<const schema_node*>& roots,
                      const std::set<const schema_node*>& skip, doc_reader& r) {
  analysis a(skip);
  a.collect(roots);
  a.settle();
  std::unordered_set<const schema_node*> reported;
  for (const schema_node* start : a.unproductive()) {
    if (reported.count(start) != 0) continue;
    // Follow what it cannot do without until a schema repeats: the cycle.
    std::vector<const schema_node*> path{start};
    std::unordered_map<const schema_node*, std::size_t> index{{start, 0}};
    const schema_node* cur = a.culprit(*start);
    while (cur != nullptr && index.count(cur) == 0) {
      index.emplace(cur, path.size());
      path.push_back(cur);
      cur = a.culprit(*cur);
    }
    for (const schema_node* n : path) reported.insert(n);
    if (cur == nullptr) continue;  // leads into a cycle reported on its own
    std::string cycle;
    for (std::size_t i = index[cur]; i < path.size(); ++i) cycle += path[i]->location + " -> ";
    cycle += cur->location;
    r.error(cur->pos, "recursive schema without a base case: " + cycle +
                          " (every value would have to contain another; give the recursion an "
                          "optional way out)");
  }
}

}  // namespace conform::openapi::detail
