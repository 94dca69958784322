#include "openapi/detail/overlay.hpp"

#include <algorithm>

#include "openapi/detail/jsonpath.hpp"

namespace conform::openapi::detail {
namespace {

/// Merges `update` into mapping `target`: mappings recursively, anything else replaced.
void merge(node& target, const node& update) {
  for (const auto& e : update.entries()) {
    node* existing = target.find(e.key);
    if (existing != nullptr && existing->is_map() && e.value.is_map()) {
      merge(*existing, e.value);
    } else {
      target.set(e.key, e.value.clone());
    }
  }
}

/// The node at the first `length` indexes of `path` (entry or item indexes
/// from the root); nullptr when an earlier edit left nothing there.
node* at_path(node& root, const std::vector<std::size_t>& path, std::size_t length) {
  node* cur = &root;
  for (std::size_t i = 0; i < length; ++i) {
    if (cur->is_map() && path[i] < cur->size()) {
      cur = &cur->entries()[path[i]].value;
    } else if (cur->is_sequence() && path[i] < cur->size()) {
      cur = &cur->items()[path[i]];
    } else {
      return nullptr;
    }
  }
  return cur;
}

/// True when `inner` is `outer` or lies below it.
bool within(const std::vector<std::size_t>& inner, const std::vector<std::size_t>& outer) {
  return inner.size() >= outer.size() && std::equal(outer.begin(), outer.end(), inner.begin());
}

}  // namespace

bool apply_overlay(const std::filesystem::path& file, node& root, doc_cache& docs, doc_reader& r) {
  const std::size_t before = r.error_count();
  const source_doc* ov = docs.load(file, file.lexically_normal().string(), r);
  if (ov == nullptr) return false;
  const source_doc& d = *ov;
  if (&d.root == &root) {  // its actions would edit themselves
    r.error(doc_reader::pos(d, d.root), "the overlay is the description itself");
    return false;
  }
  if (!r.expect_map(d, d.root, "the overlay")) return false;
  const node& version = r.required(d, d.root, "overlay", "the overlay");
  if (version.defined()) {
    const std::string v = r.str(d, version, "overlay").value_or("");
    if (v.rfind("1.", 0) != 0) {
      r.error(doc_reader::pos(d, version),
              "unsupported Overlay version '" + v + "' (1.0.x is supported)");
    }
  }
  const node& actions = r.required(d, d.root, "actions", "the overlay");
  if (!actions.defined() || !r.expect_seq(d, actions, "actions") || r.error_count() != before) {
    return false;
  }
  std::size_t n = 0;
  for (const auto& action : actions.items()) {
    ++n;
    const std::string what = "overlay action " + std::to_string(n);
    if (!r.expect_map(d, action, what)) continue;
    const node& target = r.required(d, action, "target", what);
    if (!target.defined()) continue;
    const auto text = r.str(d, target, what + " target");
    if (!text) continue;
    const auto path = jsonpath::parse(*text);
    if (!path.error.empty()) {
      source_pos at = doc_reader::pos(d, target);
      r.error(at, what + ": target '" + *text + "': " + path.error);
      continue;
    }
    const node& rem = doc_reader::child(action, "remove");
    const bool remove = rem.defined() && r.boolean(d, rem, what + " remove").value_or(false);
    const node& update = doc_reader::child(action, "update");
    if (!remove && !update.defined()) {
      r.error(doc_reader::pos(d, action), what + ": neither update nor remove: true");
      continue;
    }
    auto matches = jsonpath::select(root, path.steps);
    if (matches.empty()) {
      r.warning(doc_reader::pos(d, target),
                what + ": target '" + *text + "' selects nothing in the description (ignored)");
      continue;
    }
    // The matches' paths are indexes, taken before any edit. Removals go
    // last first, so that none shifts a node another one names; updates go
    // in document order (a merge or an append only adds at the end), and a
    // node an earlier update replaced takes no later edit below it.
    if (remove) {
      for (auto m = matches.rbegin(); m != matches.rend(); ++m) {
        if (m->path.empty()) continue;  // the root stays
        node* parent = at_path(root, m->path, m->path.size() - 1);
        if (parent == nullptr) continue;
        const auto at = static_cast<long>(m->path.back());
        if (m->in_sequence) {
          parent->items().erase(parent->items().begin() + at);
        } else {
          parent->entries().erase(parent->entries().begin() + at);
        }
      }
      continue;
    }
    std::vector<std::vector<std::size_t>> replaced;
    for (const auto& m : matches) {
      const bool gone = std::any_of(replaced.begin(), replaced.end(),
                                    [&](const auto& p) { return within(m.path, p); });
      node* selected = gone ? nullptr : at_path(root, m.path, m.path.size());
      if (selected == nullptr) continue;
      if (selected->is_map() && update.is_map()) {
        merge(*selected, update);
      } else if (selected->is_sequence()) {
        selected->push_back(update.clone());
      } else if (!m.path.empty()) {
        *selected = update.clone();
        replaced.push_back(m.path);
      } else {
        r.error(doc_reader::pos(d, update), what + ": the root can only be merged with a mapping");
      }
    }
  }
  return r.error_count() == before;
}

}  // namespace conform::openapi::detail
