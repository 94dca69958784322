#include "harness/detail/notes.hpp"

#include "core/text.hpp"

namespace conform::harness::detail {

void note_keeper::keep(std::uint64_t item, std::size_t op_order, note n,
                       const http::request& request, const http::result& result) {
  std::lock_guard lock(mutex_);
  auto key = std::make_tuple(op_order, n.auth_model, n.check, n.cause);
  auto it = kept_.find(key);
  if (it != kept_.end()) {
    ++it->second.n.occurrences;
    if (item >= it->second.item) return;
  }
  // A new note, or an earlier item of a known one: this exchange speaks for it.
  if (result.ok()) {
    const http::response& answer = result.value();
    const std::string* type = answer.find(http::field::content_type);
    n.status = answer.status;
    n.response_excerpt = core::body_excerpt(answer.body, type ? *type : std::string(), 300);
  }
  if (it == kept_.end()) {
    kept_.emplace(std::move(key), kept{item, std::move(n), request});
  } else {
    n.occurrences = it->second.n.occurrences;
    it->second = kept{item, std::move(n), request};
  }
}

std::vector<note> note_keeper::take(const std::function<std::string(const http::request&)>& curl_of,
                                    const std::function<std::string(std::string)>& redact) {
  std::lock_guard lock(mutex_);
  std::vector<note> out;
  out.reserve(kept_.size());
  for (auto& [key, k] : kept_) {
    note n = std::move(k.n);
    n.text = redact(std::move(n.text));
    n.response_excerpt = redact(std::move(n.response_excerpt));
    n.curl = curl_of(k.request);
    out.push_back(std::move(n));
  }
  kept_.clear();
  return out;
}

}  // namespace conform::harness::detail
