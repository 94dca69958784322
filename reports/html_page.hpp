#pragma once
// The shell shared by the HTML reports: one self-contained page (inline CSS,
// no script, no network, no external asset), and escaping.

#include <string>
#include <string_view>

namespace conform::reports::html {

/// `text` escaped for HTML text and attribute values.
std::string escape(std::string_view text);

/// A whole page: <!doctype html>, the title, the shared style, and `body`.
std::string page(std::string_view title, std::string_view body);

/// A status badge: <span class="badge KIND">TEXT</span> (kind: pass, fail, skip, info, none).
std::string badge(std::string_view kind, std::string_view text);

}  // namespace conform::reports::html
