#include "openapi/detail/prune.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "core/text.hpp"

namespace conform::openapi::detail {
namespace {

using pruned_position = std::pair<int, int>;  // line, column

/// Where a part of the document lies: from its key to its last node.
struct pruned_region {
  std::string pointer;
  pruned_position start, end;
  std::set<std::string> refs;  // every `$ref` text under it
  bool contains(const pruned_position& p) const { return start <= p && p <= end; }
};

/// Walks `n`: the last pruned_position of its subtree and the `$ref`s under it.
void pruned_walk(const node& n, pruned_position& end, std::set<std::string>& refs) {
  if (n.line() > 0)
    end = std::max(end, pruned_position(static_cast<int>(n.line()), static_cast<int>(n.column())));
  if (n.is_sequence()) {
    for (const auto& item : n.items()) pruned_walk(item, end, refs);
  } else if (n.is_map()) {
    for (const auto& e : n.entries()) {
      if (e.line > 0)
        end = std::max(end, pruned_position(static_cast<int>(e.line), static_cast<int>(e.column)));
      if (e.key == "$ref" && e.value.is_scalar()) refs.insert(e.value.text());
      pruned_walk(e.value, end, refs);
    }
  }
}

pruned_region pruned_region_of(const node_entry& e, std::string pointer) {
  pruned_region r;
  r.pointer = std::move(pointer);
  r.start = {static_cast<int>(e.line), static_cast<int>(e.column)};
  r.end = r.start;
  pruned_walk(e.value, r.end, r.refs);
  return r;
}

const char* const pruned_methods[] = {"get",     "put",  "post",  "delete",
                                      "options", "head", "patch", "trace"};

bool pruned_is_method(const std::string& key) {
  return std::find(std::begin(pruned_methods), std::end(pruned_methods), key) !=
         std::end(pruned_methods);
}

/// "/components/schemas/Pet" of "#/components/schemas/Pet/properties/a", or "".
std::string pruned_component_of(const std::string& ref) {
  if (ref.rfind("#/components/", 0) != 0) return {};
  std::size_t slashes = 0, end = 1;
  for (; end < ref.size(); ++end) {
    if (ref[end] == '/' && ++slashes == 4) break;
  }
  return ref.substr(1, end - 1);
}

/// The file a `$ref` names ("common/Error.yaml" of "../common/Error.yaml#/X"), by its name.
std::string pruned_file_name_of(const std::string& text) {
  std::string file = text.substr(0, text.find('#'));
  const auto slash = file.find_last_of('/');
  return slash == std::string::npos ? file : file.substr(slash + 1);
}

struct pruned_operation {
  pruned_region r;
  std::size_t path_item = 0;  // index into the path items
  std::string method_path, operation_id;
};

/// The parts a description can lose one by one: its path items, their
/// operations, and its components.
struct pruned_parts {
  std::vector<pruned_region> path_items, components;
  std::vector<pruned_operation> operations;
};

/// Where the errors fell: the first error of each part, by its pointer, and
/// of each other file, by its name.
struct pruned_errors {
  std::map<std::string, const diagnostic*> first_error;   // by pruned_region pointer
  std::map<std::string, const diagnostic*> broken_files;  // by file name
  void mark(const std::string& pointer, const diagnostic& d) { first_error.emplace(pointer, &d); }
};

/// The path items of `paths` and the operations under each.
void pruned_collect_paths(const node& paths, pruned_parts& parts) {
  for (const auto& item : paths.entries()) {
    const std::string item_pointer = "/paths/" + core::escape_pointer_token(item.key);
    parts.path_items.push_back(pruned_region_of(item, item_pointer));
    if (!item.value.is_map()) continue;
    for (const auto& m : item.value.entries()) {
      if (!pruned_is_method(m.key)) continue;
      pruned_operation op;
      op.r = pruned_region_of(m, item_pointer + "/" + m.key);
      op.path_item = parts.path_items.size() - 1;
      std::string method = m.key;
      std::transform(method.begin(), method.end(), method.begin(),
                     [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
      op.method_path = method + " " + item.key;
      if (const node& id = m.value.get("operationId"); id.is_scalar()) op.operation_id = id.text();
      parts.operations.push_back(std::move(op));
    }
  }
}

/// Every component of `components` but the x- kinds.
void pruned_collect_components(const node& comps, pruned_parts& parts) {
  for (const auto& kind : comps.entries()) {
    if (!kind.value.is_map() || kind.key.rfind("x-", 0) == 0) continue;
    for (const auto& c : kind.value.entries()) {
      parts.components.push_back(pruned_region_of(c, "/components/" +
                                                         core::escape_pointer_token(kind.key) +
                                                         "/" + core::escape_pointer_token(c.key)));
    }
  }
}

/// Each error, placed: the first error of each part keeps it out. False
/// when an error of this file lies in no part that can be taken out.
bool pruned_place_errors(const pruned_parts& parts, const std::string& display,
                         const std::vector<diagnostic>& errors, pruned_errors& placed_errors) {
  bool complete = true;
  const auto& operations = parts.operations;
  const auto& path_items = parts.path_items;
  for (const auto& d : errors) {
    if (d.level != severity::error) continue;
    if (d.pos.file != display) {
      placed_errors.broken_files.emplace(pruned_file_name_of(d.pos.file), &d);
      continue;
    }
    const pruned_position at{d.pos.line, d.pos.column};
    bool placed = false;
    for (const auto& op : operations) {
      if (op.r.contains(at)) {
        placed_errors.mark(op.r.pointer, d);
        placed = true;
      }
    }
    for (std::size_t i = 0; !placed && i < path_items.size(); ++i) {
      if (path_items[i].contains(at)) {  // the path item's own parts: all its operations
        bool any = false;
        for (const auto& op : operations) {
          if (op.path_item == i) {
            placed_errors.mark(op.r.pointer, d);
            any = true;
          }
        }
        if (!any) placed_errors.mark(path_items[i].pointer, d);  // a path item by $ref: all of it
        placed = true;
      }
    }
    for (const auto& c : parts.components) {
      if (!placed && c.contains(at)) {
        placed_errors.mark(c.pointer, d);
        placed = true;
      }
    }
    if (!placed) complete = false;
  }
  return complete;
}

/// A part that names a broken file, or a broken component, is broken too.
void pruned_spread_breakage(const pruned_parts& parts, pruned_errors& placed_errors) {
  auto& first_error = placed_errors.first_error;
  auto names_broken = [&](const pruned_region& r) -> const diagnostic* {
    for (const auto& ref : r.refs) {
      if (ref.empty() || ref.front() == '#') {
        const std::string c = pruned_component_of(ref);
        if (auto it = first_error.find(c); !c.empty() && it != first_error.end()) return it->second;
      } else if (auto it = placed_errors.broken_files.find(pruned_file_name_of(ref));
                 it != placed_errors.broken_files.end()) {
        return it->second;
      }
    }
    return nullptr;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& c : parts.components) {
      if (first_error.count(c.pointer)) continue;
      if (const diagnostic* d = names_broken(c)) {
        placed_errors.mark(c.pointer, *d);
        changed = true;
      }
    }
  }
  for (const auto& op : parts.operations) {
    if (first_error.count(op.r.pointer)) continue;
    if (const diagnostic* d = names_broken(op.r)) placed_errors.mark(op.r.pointer, *d);
  }
  // A path item by $ref names its operations' component.
  for (const auto& item : parts.path_items) {
    if (first_error.count(item.pointer)) continue;
    const bool has_operations = std::any_of(
        parts.operations.begin(), parts.operations.end(),
        [&](const auto& op) { return parts.path_items[op.path_item].pointer == item.pointer; });
    if (has_operations) continue;
    if (const diagnostic* d = names_broken(item)) placed_errors.mark(item.pointer, *d);
  }
}

/// True when some part here names every other file with an error, so that
/// taking the parts out takes those errors out too.
bool pruned_foreign_errors_taken(const pruned_parts& parts, const pruned_errors& placed_errors) {
  bool complete = true;
  for (const auto& [file, d] : placed_errors.broken_files) {
    const auto named = [&, &file = file](const pruned_region& r) {
      return std::any_of(r.refs.begin(), r.refs.end(), [&](const std::string& ref) {
        return !ref.empty() && ref.front() != '#' && pruned_file_name_of(ref) == file;
      });
    };
    const bool taken = std::any_of(parts.components.begin(), parts.components.end(), named) ||
                       std::any_of(parts.operations.begin(), parts.operations.end(),
                                   [&](const pruned_operation& op) { return named(op.r); });
    if (!taken) complete = false;
  }
  return complete;
}

/// The parts to take out, each with its first error: operations, then path
/// items, then components.
void pruned_list_parts(const pruned_parts& parts, const pruned_errors& placed_errors,
                       prune_plan& plan) {
  const auto& first_error = placed_errors.first_error;
  for (const auto& op : parts.operations) {
    auto it = first_error.find(op.r.pointer);
    if (it == first_error.end()) continue;
    plan.pointers.push_back(op.r.pointer);
    plan.parts.push_back({op.method_path, op.operation_id, true, *it->second});
  }
  for (const auto& item : parts.path_items) {
    auto it = first_error.find(item.pointer);
    if (it == first_error.end()) continue;
    plan.pointers.push_back(item.pointer);
    std::string path;  // the key back from its pointer token
    for (std::size_t k = 7; k < item.pointer.size(); ++k) {
      const bool escape = item.pointer[k] == '~' && k + 1 < item.pointer.size();
      path += escape ? (item.pointer[++k] == '1' ? '/' : '~') : item.pointer[k];
    }
    plan.parts.push_back({"every operation of path " + path, "", true, *it->second});
  }
  for (const auto& c : parts.components) {
    auto it = first_error.find(c.pointer);
    if (it == first_error.end()) continue;
    plan.pointers.push_back(c.pointer);
    plan.parts.push_back({"#" + c.pointer, "", false, *it->second});
  }
}

}  // namespace

prune_plan plan_pruning(const node& root, const std::string& display,
                        const std::vector<diagnostic>& errors) {
  prune_plan plan;
  pruned_parts parts;
  if (const node& paths = root.get("paths"); paths.is_map()) pruned_collect_paths(paths, parts);
  if (const node& comps = root.get("components"); comps.is_map()) {
    pruned_collect_components(comps, parts);
  }
  pruned_errors placed_errors;
  if (!pruned_place_errors(parts, display, errors, placed_errors)) plan.complete = false;
  pruned_spread_breakage(parts, placed_errors);
  // An error in another file that nothing here names cannot be taken out.
  if (!pruned_foreign_errors_taken(parts, placed_errors)) plan.complete = false;
  pruned_list_parts(parts, placed_errors, plan);
  return plan;
}

void remove_pointer(node& root, const std::string& pointer) {
  std::vector<std::string> tokens;
  for (std::size_t i = 1; i <= pointer.size();) {
    const std::size_t j = std::min(pointer.find('/', i), pointer.size());
    std::string t = pointer.substr(i, j - i);
    std::string out;
    for (std::size_t k = 0; k < t.size(); ++k) {
      if (t[k] == '~' && k + 1 < t.size()) {
        out += t[k + 1] == '1' ? '/' : '~';
        ++k;
      } else {
        out += t[k];
      }
    }
    tokens.push_back(std::move(out));
    i = j + 1;
  }
  if (tokens.empty()) return;
  node* at = &root;
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    at = at->is_map() ? at->find(tokens[i]) : nullptr;
    if (at == nullptr) return;
  }
  if (at->is_map()) at->remove(tokens.back());
}

}  // namespace conform::openapi::detail
