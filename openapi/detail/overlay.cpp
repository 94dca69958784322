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

/// The node at `path` (entry or item indexes from the root).
node& at_path(node& root, const std::vector<std::size_t>& path, std::size_t length) {
  node* cur = &root;
  for (std::size_t i = 0; i < length; ++i) {
    cur = cur->is_map() ? &cur->entries()[path[i]].value : &cur->items()[path[i]];
  }
  return *cur;
}

}  // namespace

bool apply_overlay(const std::filesystem::path& file, node& root, doc_cache& docs, doc_reader& r) {
  const std::size_t before = r.error_count();
  const source_doc* ov = docs.load(file, file.lexically_normal().string(), r);
  if (ov == nullptr) return false;
  const source_doc& d = *ov;
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
    // Deepest and last first: an edit never moves a node another match
    // names (the matches' paths are indexes, taken before any edit).
    std::reverse(matches.begin(), matches.end());
    for (const auto& m : matches) {
      node& parent = at_path(root, m.path, m.path.empty() ? 0 : m.path.size() - 1);
      node& selected = at_path(root, m.path, m.path.size());
      if (remove) {
        if (m.path.empty()) continue;  // the root stays
        if (m.in_sequence) {
          parent.items().erase(parent.items().begin() + static_cast<long>(m.path.back()));
        } else {
          parent.entries().erase(parent.entries().begin() + static_cast<long>(m.path.back()));
        }
      } else if (selected.is_map() && update.is_map()) {
        merge(selected, update);
      } else if (selected.is_sequence()) {
        selected.push_back(update.clone());
      } else if (!m.path.empty()) {
        selected = update.clone();
      } else {
        r.error(doc_reader::pos(d, update), what + ": the root can only be merged with a mapping");
      }
    }
  }
  return r.error_count() == before;
}

}  // namespace conform::openapi::detail
