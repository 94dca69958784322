#include "openapi/detail/overlay.hpp"

#include <algorithm>

#include "openapi/detail/jsonpath.hpp"

namespace conform::openapi::detail {
namespace {

/// Merges `update` into mapping `target`: mappings recursively, anything else replaced.
void merge(YAML::Node target, const YAML::Node& update) {
  for (auto it = update.begin(); it != update.end(); ++it) {
    const std::string key = it->first.Scalar();
    YAML::Node existing = yaml_reader::child(target, key);
    if (existing.IsDefined() && existing.IsMap() && it->second.IsMap()) {
      merge(existing, it->second);
    } else {
      target[key] = YAML::Clone(it->second);
    }
  }
}

/// Takes the matches out of their parents; sequence items last to first.
void remove_all(std::vector<jsonpath::match> matches) {
  // Mapping entries first, then sequence items from the highest index down,
  // so that no removal moves an item another one names.
  std::stable_sort(matches.begin(), matches.end(), [](const auto& a, const auto& b) {
    if (a.in_sequence != b.in_sequence) return !a.in_sequence;
    return a.in_sequence && a.index > b.index;
  });
  for (auto& m : matches) {
    if (!m.parent.IsDefined()) continue;  // the root stays
    if (!m.in_sequence) {
      m.parent.remove(m.key);
      continue;
    }
    m.parent.remove(m.index);
  }
}

}  // namespace

bool apply_overlay(const std::filesystem::path& file, YAML::Node root, doc_cache& docs,
                   yaml_reader& r) {
  const std::size_t before = r.error_count();
  const yaml_doc* ov = docs.load(file, file.lexically_normal().string(), r);
  if (ov == nullptr) return false;
  const yaml_doc& d = *ov;
  if (!r.expect_map(d, d.root, "the overlay")) return false;
  YAML::Node version = r.required(d, d.root, "overlay", "the overlay");
  if (version.IsDefined()) {
    const std::string v = r.str(d, version, "overlay").value_or("");
    if (v.rfind("1.", 0) != 0) {
      r.error(yaml_reader::pos(d, version),
              "unsupported Overlay version '" + v + "' (1.0.x is supported)");
    }
  }
  YAML::Node actions = r.required(d, d.root, "actions", "the overlay");
  if (!actions.IsDefined() || !r.expect_seq(d, actions, "actions") || r.error_count() != before) {
    return false;
  }
  std::size_t n = 0;
  for (const auto& action : actions) {
    ++n;
    const std::string what = "overlay action " + std::to_string(n);
    if (!r.expect_map(d, action, what)) continue;
    YAML::Node target = r.required(d, action, "target", what);
    if (!target.IsDefined()) continue;
    const auto text = r.str(d, target, what + " target");
    if (!text) continue;
    const auto path = jsonpath::parse(*text);
    if (!path.error.empty()) {
      source_pos at = yaml_reader::pos(d, target);
      r.error(at, what + ": target '" + *text + "': " + path.error);
      continue;
    }
    YAML::Node rem = yaml_reader::child(action, "remove");
    const bool remove = rem.IsDefined() && r.boolean(d, rem, what + " remove").value_or(false);
    YAML::Node update = yaml_reader::child(action, "update");
    if (!remove && !update.IsDefined()) {
      r.error(yaml_reader::pos(d, action), what + ": neither update nor remove: true");
      continue;
    }
    auto matches = jsonpath::select(root, path.steps);
    if (matches.empty()) {
      r.warning(yaml_reader::pos(d, target),
                what + ": target '" + *text + "' selects nothing in the description (ignored)");
      continue;
    }
    if (remove) {
      remove_all(std::move(matches));
      continue;
    }
    for (auto& m : matches) {
      if (m.node.IsMap() && update.IsMap()) {
        merge(m.node, update);
      } else if (m.node.IsSequence()) {
        m.node.push_back(YAML::Clone(update));
      } else if (m.parent.IsDefined() && !m.in_sequence) {
        m.parent[m.key] = YAML::Clone(update);
      } else if (m.parent.IsDefined()) {
        m.parent[m.index] = YAML::Clone(update);
      } else {
        r.error(yaml_reader::pos(d, update), what + ": the root can only be merged with a mapping");
      }
    }
  }
  return r.error_count() == before;
}

}  // namespace conform::openapi::detail
