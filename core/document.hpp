#pragma once
// Loading YAML and JSON files once (core/parse.hpp, within core/limits.hpp),
// and typed reads of their nodes that report a wrong type as a diagnostic
// with file:line:col. Descriptions, the files their $refs name, overlays,
// permission matrices, profiles and workflows are all read through here.

#include <boost/json/value.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/node.hpp"
#include "core/source.hpp"

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX

namespace conform::core {

/// One loaded file: its name in diagnostics and its root.
struct source_doc {
  std::filesystem::path path;
  std::string display;
  node root;
};

/// Where diagnostics go, and the typed reads that feed them.
class doc_reader {
 public:
  /// Diagnostics are appended to `out`, which must outlive the reader.
  explicit doc_reader(std::vector<diagnostic>& out) : out_(&out) {}

  /// 1-based position of `n` in `doc` (line 0 when unknown).
  static source_pos pos(const source_doc& doc, const node& n);
  /// 1-based position of the key of `e` in `doc`.
  static source_pos pos(const source_doc& doc, const node_entry& e);
  /// Appends an error at `at`.
  void error(const source_pos& at, std::string message);
  /// Appends a warning at `at`.
  void warning(const source_pos& at, std::string message);
  /// Appends a note at `at` (information: a default that was chosen).
  void note(const source_pos& at, std::string message);
  /// Error counter, to tell whether a step added errors.
  std::size_t error_count() const;

  /// True for a mapping; else an error "`what` must be a mapping".
  bool expect_map(const source_doc& doc, const node& n, std::string_view what);
  /// True for a sequence; else an error.
  bool expect_seq(const source_doc& doc, const node& n, std::string_view what);
  /// map[key] when `map` is a mapping holding `key`; the undefined node otherwise.
  static const node& child(const node& map, std::string_view key) { return map.get(key); }
  /// The value of `key`; an error at the map when it is missing.
  const node& required(const source_doc& doc, const node& map, std::string_view key,
                       std::string_view what);

  /// A string scalar (any scalar not null); nullopt and an error otherwise.
  std::optional<std::string> str(const source_doc& doc, const node& n, std::string_view what);
  /// A boolean scalar (true/false); nullopt and an error otherwise.
  std::optional<bool> boolean(const source_doc& doc, const node& n, std::string_view what);
  /// An integer scalar; nullopt and an error otherwise.
  std::optional<std::int64_t> integer(const source_doc& doc, const node& n, std::string_view what);
  /// A non-negative integer scalar; nullopt and an error otherwise.
  std::optional<std::uint64_t> count(const source_doc& doc, const node& n, std::string_view what);
  /// A number scalar (integer or decimal); nullopt and an error otherwise.
  std::optional<double> number(const source_doc& doc, const node& n, std::string_view what);
  /// A sequence of strings (a single string is an error); nullopt and an error otherwise.
  std::optional<std::vector<std::string>> strings(const source_doc& doc, const node& n,
                                                  std::string_view what);
  /// A string or a sequence of strings.
  std::optional<std::vector<std::string>> string_or_strings(const source_doc& doc, const node& n,
                                                            std::string_view what);
  /// `{status, error_code}` as used by several extensions.
  bool status_code(const source_doc& doc, const node& n, std::string_view what, int& status,
                   std::string& code);

  /// The node as JSON (core::to_json).
  static boost::json::value to_json(const node& n);

 private:
  std::vector<diagnostic>* out_;
};

/// The scalar kinds a plain (unquoted) YAML scalar can be.
enum class scalar_kind { null, boolean, integer, number, string };

/// How YAML 1.2 (core schema) reads `n`, a scalar node; a quoted scalar is a string.
scalar_kind classify(const node& n);

/// The node as JSON, scalars typed as YAML reads them (a quoted scalar stays a string).
boost::json::value to_json(const node& n);

/// The bytes of `file`, a regular file of at most limits::max_file_bytes
/// (never a device, a pipe or a folder); nullopt and an error at `where` otherwise.
std::optional<std::string> read_text_file(const std::filesystem::path& file, doc_reader& r,
                                          const source_pos& where);

/// Loads each file once and hashes the bytes of every file loaded.
class doc_cache {
 public:
  doc_cache();
  ~doc_cache();
  doc_cache(const doc_cache&) = delete;
  doc_cache& operator=(const doc_cache&) = delete;

  /// Loads `file` (named `display` in diagnostics), a regular file within
  /// the limits of core/limits.hpp, as JSON or YAML (core::parse_document).
  /// On failure adds one error, at `at` when given, and returns nullptr. The
  /// document is the cache's: a caller may edit it (a Swagger 2.0 conversion).
  source_doc* load(const std::filesystem::path& file, const std::string& display, doc_reader& r,
                   const std::optional<source_pos>& at = std::nullopt);
  /// The folder whose files load_beside may read; by default the folder of
  /// the first file loaded (the description).
  void set_root(const std::filesystem::path& folder);
  /// The file `relative` names beside `base`, loaded once. Only a regular
  /// file inside the root folder (set_root) is read. An absolute URI
  /// ("https://...") is read only where a base URI (set_base_uri) maps it to
  /// a file; any other is a remote document, never fetched (an error).
  source_doc* load_beside(const source_doc& base, const std::string& relative, doc_reader& r,
                          const source_pos& at);
  /// The absolute URI `doc` gives itself (OpenAPI 3.2's `$self`): a
  /// reference under its folder ("https://example.com/api/x.yaml" for
  /// `$self: https://example.com/api/openapi.yaml`) names the file at the
  /// same place beside `doc`.
  void set_base_uri(const source_doc& doc, std::string uri);
  /// Hex sha256 of the bytes of every file loaded so far, in load order.
  std::string hash() const;

 private:
  std::map<std::string, std::unique_ptr<source_doc>> docs_;
  std::vector<std::string> failed_;
  std::unique_ptr<evp_md_ctx_st, void (*)(evp_md_ctx_st*)> hashing_;  // sha256 of every file
  std::filesystem::path root_dir_;  // canonical folder of the first file loaded
  /// (a document, the folder part of the URI it gives itself)
  std::vector<std::pair<const source_doc*, std::string>> base_uris_;
};

/// True when `ref` starts with a URI scheme ("https:", "urn:"): an absolute URI.
bool is_absolute_uri(std::string_view ref);

/// The node at `pointer` ("/components/schemas/X", "" = root) of `root`; undefined if absent.
const node& at_pointer(const node& root, std::string_view pointer);

}  // namespace conform::core
