#include "profile/detail/pem.hpp"

#include "core/file.hpp"

namespace conform::profile::detail {
namespace {

/// True when `text` holds a PEM block whose label ends in `kind`
/// ("-----BEGIN EC PRIVATE KEY-----" is a PRIVATE KEY).
bool pem_has_block(const std::string& text, std::string_view kind) {
  for (std::size_t at = text.find("-----BEGIN "); at != std::string::npos;
       at = text.find("-----BEGIN ", at + 1)) {
    const std::size_t end = text.find("-----", at + 11);
    if (end == std::string::npos) return false;
    const std::string_view label(text.data() + at + 11, end - at - 11);
    if (label.size() >= kind.size() && label.substr(label.size() - kind.size()) == kind) {
      return true;
    }
  }
  return false;
}

}  // namespace

core::outcome<pem_text> read_pem(const std::string& written, const std::filesystem::path& folder,
                                 const env_lookup& env, std::string_view kind) {
  pem_text out;
  std::string text;
  if (written.size() > 3 && written.rfind("${", 0) == 0 && written.back() == '}') {
    out.env_name = written.substr(2, written.size() - 3);
    const auto found = env ? env(out.env_name) : std::nullopt;
    if (!found || found->empty()) {
      return core::fail("environment variable " + out.env_name + " is " +
                        (found ? "empty" : "not set"));
    }
    if (found->find("-----BEGIN ") != std::string::npos) {
      text = *found;
    } else {
      // The variable names a file (a path never is a secret; the PEM may be).
      auto bytes = core::read_file(folder / *found);
      if (!bytes) return core::fail(std::move(bytes).error());
      text = std::move(*bytes);
    }
  } else {
    auto bytes = core::read_file(folder / written);
    if (!bytes) return core::fail(std::move(bytes).error());
    text = std::move(*bytes);
  }
  if (!pem_has_block(text, kind)) {
    return core::fail("no PEM block '" + std::string(kind) + "' in " +
                      (out.env_name.empty() ? "'" + written + "'" : "${" + out.env_name + "}"));
  }
  out.pem = std::move(text);
  return out;
}

}  // namespace conform::profile::detail
