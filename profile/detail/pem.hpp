#pragma once
// Private to the profile loader: a credential's client certificate and key
// (mutual TLS), given as a file or as ${NAME}.

#include <filesystem>
#include <string>
#include <string_view>

#include "core/outcome.hpp"
#include "profile/loader.hpp"

namespace conform::profile::detail {

/// A PEM text read for a profile key.
struct pem_text {
  std::string pem;
  /// The variable it came from ("" for a file), named in reproductions.
  std::string env_name;
};

/// Reads the value of a `certificate` or `key` entry: "${NAME}" is an
/// environment variable holding the PEM text (or the path of a PEM file),
/// anything else a PEM file, relative to `folder` (the profile's). The error
/// (one line, never the key's text) says why when it cannot be read or holds
/// no PEM block of `kind` ("CERTIFICATE", "PRIVATE KEY").
core::outcome<pem_text> read_pem(const std::string& written, const std::filesystem::path& folder,
                                 const env_lookup& env, std::string_view kind);

}  // namespace conform::profile::detail
