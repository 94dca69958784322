// The loader's first pass (document structure into the typed model) and its
// driver: parse, follow $refs, read the matrix, then run the semantic checks.

#include "openapi/loader.hpp"

#include <algorithm>

#include "core/text.hpp"
#include "openapi/detail/reader.hpp"
#include "openapi/detail/checks.hpp"
#include "openapi/detail/extensions.hpp"
#include "openapi/detail/links.hpp"
#include "openapi/detail/operations.hpp"
#include "openapi/detail/overlay.hpp"
#include "openapi/detail/prune.hpp"
#include "openapi/detail/swagger2.hpp"
#include "openapi/provenance.hpp"
#include "openapi/detail/schema_loader.hpp"

namespace conform::openapi {

namespace {

using core::doc_reader;
using detail::node;
using detail::source_doc;

std::optional<detail::dialect> parse_version(doc_reader& r, const source_doc& doc, api_spec& spec) {
  const node& v = core::doc_reader::child(doc.root, "openapi");
  if (!v.defined()) {
    r.error(doc_reader::pos(doc, doc.root),
            "not an OpenAPI 3.x description: the root lacks the key 'openapi'");
    return std::nullopt;
  }
  auto s = r.str(doc, v, "openapi");
  if (!s) return std::nullopt;
  spec.openapi_version = *s;
  if (s->rfind("3.0.", 0) == 0) return detail::dialect::openapi30;
  // 3.2 writes its schemas in JSON Schema 2020-12, as 3.1 does.
  if (s->rfind("3.1.", 0) == 0 || s->rfind("3.2.", 0) == 0) return detail::dialect::openapi31;
  r.error(doc_reader::pos(doc, v),
          "unsupported OpenAPI version '" + *s + "' (3.0.x, 3.1.x and 3.2.x are)");
  return std::nullopt;
}

void parse_info(doc_reader& r, const source_doc& doc, api_spec& spec) {
  const node& info = r.required(doc, doc.root, "info", "the description");
  if (!info.defined() || !r.expect_map(doc, info, "info")) return;
  const node& title = doc_reader::child(info, "title");
  if (title.defined()) spec.title = r.str(doc, title, "info.title").value_or("");
  const node& version = doc_reader::child(info, "version");
  if (version.defined()) spec.version = r.str(doc, version, "info.version").value_or("");
}

void parse_servers(doc_reader& r, const source_doc& doc, api_spec& spec) {
  const node& servers = doc_reader::child(doc.root, "servers");
  if (!servers.defined() || !r.expect_seq(doc, servers, "servers")) return;
  for (const auto& s : servers.items()) {
    if (!r.expect_map(doc, s, "server")) continue;
    server out;
    const node& url = r.required(doc, s, "url", "server");
    if (url.defined()) out.url = r.str(doc, url, "server url").value_or("");
    const node& desc = doc_reader::child(s, "description");
    if (desc.defined()) out.description = r.str(doc, desc, "server description").value_or("");
    const node& vars = doc_reader::child(s, "variables");
    if (vars.defined() && r.expect_map(doc, vars, "server variables")) {
      for (auto it = vars.entries().begin(); it != vars.entries().end(); ++it) {
        const node& def = doc_reader::child(it->value, "default");
        if (def.defined()) {
          out.variable_defaults[it->key] = r.str(doc, def, "server variable default").value_or("");
        }
      }
    }
    spec.servers.push_back(std::move(out));
  }
}

void parse_tags(doc_reader& r, const source_doc& doc, api_spec& spec) {
  const node& tags = doc_reader::child(doc.root, "tags");
  if (!tags.defined() || !r.expect_seq(doc, tags, "tags")) return;
  for (const auto& t : tags.items()) {
    if (!r.expect_map(doc, t, "tag")) continue;
    const node& name = r.required(doc, t, "name", "tag");
    if (name.defined()) spec.tags.push_back(r.str(doc, name, "tag name").value_or(""));
  }
}

/// Every scope the flows of an oauth2 scheme declare, in order, without repeats.
void parse_flow_scopes(doc_reader& r, const source_doc& doc, const node& n, security_scheme& s) {
  const node& flows = doc_reader::child(n, "flows");
  if (!flows.defined() || !r.expect_map(doc, flows, "oauth2 flows")) return;
  for (auto f = flows.entries().begin(); f != flows.entries().end(); ++f) {
    const node& scopes = doc_reader::child(f->value, "scopes");
    if (!scopes.defined() || !r.expect_map(doc, scopes, "oauth2 flow scopes")) continue;
    for (auto it = scopes.entries().begin(); it != scopes.entries().end(); ++it) {
      const std::string scope = it->key;
      if (std::find(s.flow_scopes.begin(), s.flow_scopes.end(), scope) == s.flow_scopes.end()) {
        s.flow_scopes.push_back(scope);
      }
    }
  }
}

/// The type of scheme `n` into `s`; false (and an error) when Conform cannot send it.
bool parse_scheme_type(doc_reader& r, const source_doc& doc, const node& n, const std::string& what,
                       security_scheme& s) {
  const node& type = r.required(doc, n, "type", what);
  if (!type.defined()) return false;
  const std::string t = r.str(doc, type, "type").value_or("");
  s.declared_type = t;
  if (t == "http") {
    const node& scheme = r.required(doc, n, "scheme", what);
    if (!scheme.defined()) return false;
    std::string sc = r.str(doc, scheme, "scheme").value_or("");
    std::transform(sc.begin(), sc.end(), sc.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    s.header = "Authorization";
    if (sc == "bearer") {
      s.kind = security_scheme::type::http_bearer;
      const node& format = doc_reader::child(n, "bearerFormat");
      if (format.defined()) s.bearer_format = r.str(doc, format, "bearerFormat").value_or("");
      s.credential = credential_kind::bearer;
    } else if (sc == "basic") {
      s.kind = security_scheme::type::http_basic;
      s.credential = credential_kind::basic;
    } else if (sc == "digest") {
      s.kind = security_scheme::type::http_digest;
      s.credential = credential_kind::digest;
    } else {
      r.error(doc_reader::pos(doc, scheme),
              what + ": the http scheme '" + sc +
                  "' is not supported (bearer, basic and digest are); Conform cannot send it");
      return false;
    }
    return true;
  }
  if (t == "apiKey") {
    const node& in = r.required(doc, n, "in", what);
    const node& name = r.required(doc, n, "name", what);
    if (!in.defined() || !name.defined()) return false;
    const std::string where = r.str(doc, in, "in").value_or("");
    s.param = r.str(doc, name, "name").value_or("");
    s.credential = credential_kind::api_key;
    if (where == "header") {
      s.kind = security_scheme::type::api_key_header;
      s.header = s.param;
    } else if (where == "query") {
      s.kind = security_scheme::type::api_key_query;
    } else if (where == "cookie") {
      s.kind = security_scheme::type::api_key_cookie;
      s.header = "Cookie";
    } else {
      r.error(doc_reader::pos(doc, in),
              what + ": apiKey 'in' must be header, query or cookie, got '" + where + "'");
      return false;
    }
    return true;
  }
  if (t == "oauth2" || t == "openIdConnect") {
    // Both end in a bearer token on the request; the scopes are the flows'.
    s.kind = security_scheme::type::http_bearer;
    s.header = "Authorization";
    s.credential = credential_kind::bearer;
    if (t == "oauth2") {
      parse_flow_scopes(r, doc, n, s);
      const node& metadata = doc_reader::child(n, "oauth2MetadataUrl");  // 3.2
      if (metadata.defined()) {
        s.oauth2_metadata_url = r.str(doc, metadata, "oauth2MetadataUrl").value_or("");
      }
    }
    return true;
  }
  if (t == "mutualTLS") {
    // A client certificate in the TLS handshake: a profile credential with a
    // certificate and key presents it (docs/spec-extensions.md).
    s.kind = security_scheme::type::mutual_tls;
    s.credential = credential_kind::mutual_tls;
    r.note(doc_reader::pos(doc, type),
           what +
               ": mutualTLS, a client certificate presented in the TLS handshake; a profile "
               "credential gives one with `certificate` and `key`, and without one the "
               "operations that need it are not run (no client certificate)");
    return true;
  }
  r.error(doc_reader::pos(doc, type),
          what + ": unknown type '" + t + "' (http, apiKey, oauth2 and openIdConnect are)");
  return false;
}

void parse_schemes(detail::parse_context& ctx, const node& components) {
  doc_reader& r = ctx.r;
  const source_doc& root = ctx.doc;
  api_spec& spec = ctx.spec;
  const node& schemes = doc_reader::child(components, "securitySchemes");
  if (!schemes.defined() || !r.expect_map(root, schemes, "components.securitySchemes")) return;
  for (auto it = schemes.entries().begin(); it != schemes.entries().end(); ++it) {
    auto s = std::make_unique<security_scheme>();
    s->name = it->key;
    s->pos = doc_reader::pos(root, *it);
    const std::string what = "security scheme '" + s->name + "'";
    // A Reference Object to a scheme elsewhere; a remote one is left out with
    // a warning (an operation that names it says so), not the whole document.
    const node& ref = doc_reader::child(it->value, "$ref");
    const std::string self_folder = spec.self_uri.substr(0, spec.self_uri.rfind('/') + 1);
    if (ref.is_scalar() && core::is_absolute_uri(ref.text()) &&
        (self_folder.empty() || ref.text().rfind(self_folder, 0) != 0)) {
      r.warning(doc_reader::pos(root, ref),
                what + ": its $ref '" + ref.text() +
                    "' names a remote document, which Conform does not fetch; the scheme is "
                    "left out");
      ctx.state->unfollowed_schemes.insert(s->name);
      continue;
    }
    auto loc = detail::follow(ctx, root, it->value,
                              "/components/securitySchemes/" + core::escape_pointer_token(s->name),
                              "security scheme");
    if (!loc) {
      ctx.state->unfollowed_schemes.insert(s->name);
      continue;
    }
    const source_doc& doc = *loc->doc;
    const node& n = loc->value();
    if (!r.expect_map(doc, n, what)) continue;
    if (!parse_scheme_type(r, doc, n, what, *s)) continue;
    const node& deprecated = doc_reader::child(n, "deprecated");  // 3.2
    if (deprecated.defined())
      s->deprecated = r.boolean(doc, deprecated, "deprecated").value_or(false);
    detail::parse_scheme_extensions(r, doc, n, *s);
    spec.schemes.push_back(std::move(s));
  }
}

void parse_components(doc_reader& r, const source_doc& doc, detail::schema_loader& schemas,
                      const node& components, api_spec& spec) {
  // Every component schema is loaded, used or not, so all of them are checked.
  const node& defs = doc_reader::child(components, "schemas");
  if (defs.defined() && r.expect_map(doc, defs, "components.schemas")) {
    // `schemas: {$ref: 'schemas.yml'}`: the map a bundler would paste there
    // (its schemas are then where `#/components/schemas/X` leads too).
    if (const node& ref = doc_reader::child(defs, "$ref"); ref.is_scalar()) {
      schemas.note_nonstandard(doc_reader::pos(doc, ref), "components.schemas");
    }
    auto found = schemas.follow_refs(doc, defs, "/components/schemas");
    if (found && r.expect_map(*found->doc, *found->at, "components.schemas")) {
      const node& map = *found->at;
      for (auto it = map.entries().begin(); it != map.entries().end(); ++it) {
        schemas.at(*found->doc, found->pointer + "/" + core::escape_pointer_token(it->key),
                   doc_reader::pos(*found->doc, *it));
      }
    }
  }
  const node& machines = doc_reader::child(components, "x-state-machines");
  if (machines.defined() && r.expect_map(doc, machines, "components.x-state-machines")) {
    for (auto it = machines.entries().begin(); it != machines.entries().end(); ++it) {
      auto m = detail::parse_state_machine(r, doc, it->key, it->value);
      if (m) spec.state_machines.emplace(m->name, std::move(*m));
    }
  }
}

/// OpenAPI 3.2 `$self`: the URI the description gives itself and its base
/// for references; an absolute one maps references under it to files here.
void parse_self(doc_reader& r, const source_doc& doc, detail::doc_cache& docs, api_spec& spec) {
  const node& self = doc_reader::child(doc.root, "$self");
  if (!self.defined()) return;
  auto uri = r.str(doc, self, "$self");
  if (!uri) return;
  if (uri->find('#') != std::string::npos) {
    r.error(doc_reader::pos(doc, self), "$self '" + *uri + "' must not have a fragment ('#')");
    return;
  }
  spec.self_uri = *uri;
  if (core::is_absolute_uri(*uri)) docs.set_base_uri(doc, *uri);
}

/// The names of the 3.1 webhooks: requests the API sends, so none is tested.
void parse_webhooks(doc_reader& r, const source_doc& doc, api_spec& spec) {
  const node& hooks = doc_reader::child(doc.root, "webhooks");
  if (!hooks.defined() || !r.expect_map(doc, hooks, "webhooks")) return;
  for (auto it = hooks.entries().begin(); it != hooks.entries().end(); ++it)
    spec.webhooks.push_back(it->key);
}

std::string display_name(const std::filesystem::path& p) {
  return p.lexically_normal().string();
}

/// One load of `file`, with the nodes `removed` names taken out of the
/// document before it is read; with `plan`, what a further round could take
/// out when the load has errors.
load_result load_once(const std::filesystem::path& file, const load_options& opts,
                      const std::vector<std::string>& removed, detail::prune_plan* plan) {
  load_result result;
  doc_reader r(result.diagnostics);
  detail::doc_cache docs;
  if (!opts.ref_root.empty()) docs.set_root(opts.ref_root);
  {
    source_doc* doc = docs.load(file, display_name(file), r);
    if (doc == nullptr) return result;
    if (!r.expect_map(*doc, doc->root, "the description root")) return result;
    // Overlays edit the document as given, before anything reads it: their
    // targets name a Swagger 2.0 description's own keys (`definitions`,
    // `parameters[?(@.in=='formData')]`), not those of its conversion.
    for (const auto& overlay : opts.overlays) {
      if (!detail::apply_overlay(overlay, doc->root, docs, r)) return result;
    }
    // Swagger 2.0 is converted to the 3.0 shape; what cannot be is refused.
    bool swagger2 = false;
    if (const node& swagger = doc_reader::child(doc->root, "swagger");
        swagger.defined() && !doc_reader::child(doc->root, "openapi").defined()) {
      // Read before the conversion, which edits the root `swagger` is in.
      const std::string v = swagger.is_scalar() ? swagger.text() : "";
      const source_pos at = doc_reader::pos(*doc, swagger);
      if (v != "2.0" || !detail::convert_swagger2(*doc, r)) {
        r.error(at, "this Swagger " + v +
                        " description cannot be converted on load: convert it first, e.g. `npx "
                        "swagger2openapi " +
                        doc->display + " -o openapi.yaml`");
        return result;
      }
      r.note(at, "a Swagger 2.0 description, converted to OpenAPI 3.0 on load");
      swagger2 = true;
    }
    for (const auto& pointer : removed) detail::remove_pointer(doc->root, pointer);

    api_spec spec;
    spec.file = doc->display;
    auto dialect = parse_version(r, *doc, spec);
    if (!dialect) return result;
    const bool v32 = spec.openapi_version.rfind("3.2.", 0) == 0;
    if (v32) parse_self(r, *doc, docs, spec);
    detail::schema_loader schemas(*spec.arena, docs, r, *dialect);
    const bool v31 = *dialect == detail::dialect::openapi31;
    detail::load_state state;
    detail::parse_context ctx{r, docs, schemas, *doc, spec, v31, swagger2, v32, &state};
    parse_info(r, *doc, spec);
    parse_servers(r, *doc, spec);
    parse_tags(r, *doc, spec);
    const node& components = doc_reader::child(doc->root, "components");
    if (components.defined() && r.expect_map(*doc, components, "components")) {
      parse_schemes(ctx, components);
      parse_components(r, *doc, schemas, components, spec);
    }
    detail::parse_root_rules(r, *doc, doc->root, schemas, spec.rules);

    std::vector<security_requirement> root_security;
    const node& sec = doc_reader::child(doc->root, "security");
    if (sec.defined()) root_security = detail::parse_security(ctx, sec);
    // 3.1 lets a description have only webhooks or components.
    const node& paths = v31 ? doc_reader::child(doc->root, "paths")
                            : r.required(*doc, doc->root, "paths", "the description");
    if (paths.defined()) detail::parse_paths(ctx, paths, root_security, sec.defined());
    if (const auto& in_schemas = schemas.nonstandard(); in_schemas.count > 0) {
      if (state.nonstandard_refs == 0) {
        state.first_nonstandard = in_schemas.first;
        state.first_nonstandard_what = in_schemas.first_what;
      }
      state.nonstandard_refs += in_schemas.count;
    }
    if (state.nonstandard_refs > 0) {
      r.note(state.first_nonstandard,
             "this description uses " + std::to_string(state.nonstandard_refs) +
                 " $ref(s) where OpenAPI allows none (the first: " + state.first_nonstandard_what +
                 "); Conform follows them as bundlers such as Redocly do, but other tools may not");
    }
    parse_webhooks(r, *doc, spec);
    detail::complete_operations(r, spec);
    detail::resolve_links(r, spec);
    if (spec.operations.empty()) {
      r.note(doc_reader::pos(*doc, paths.defined() ? paths : doc->root),
             "no operations: the description has no paths with operations, so `conform run` "
             "has nothing to send");
    }
    schemas.finish();
    resolve_provenance(spec);

    // The matrix: given, or permissions.yaml beside the spec when it exists.
    std::filesystem::path matrix = opts.permissions;
    if (matrix.empty()) {
      const auto beside = file.parent_path() / "permissions.yaml";
      std::error_code ec;
      if (std::filesystem::exists(beside, ec)) {
        matrix = beside;
      } else if (opts.require_permissions) {
        r.error(source_pos{display_name(beside), 0, 0},
                "the permission matrix is required and was not found");
      }
    }
    if (!matrix.empty()) {
      spec.permissions =
          detail::load_permissions(r, docs, matrix, display_name(matrix), spec.credential_labels());
    }

    detail::check_spec(r, spec);
    if (spec.permissions) detail::check_against_matrix(r, spec, *spec.permissions);
    spec.hash = docs.hash();
    if (!has_errors(result.diagnostics)) {
      result.spec = std::move(spec);
    } else if (plan != nullptr) {
      *plan = detail::plan_pruning(doc->root, doc->display, result.diagnostics);
    }
  }
  return result;
}

}  // namespace

load_result load(const std::filesystem::path& file, const load_options& opts) {
  if (!opts.skip_invalid_operations) return load_once(file, opts, {}, nullptr);
  // Round by round: each takes out what the errors of the last one are in
  // (an operation, a component and what names it), until the rest loads or
  // an error lies where nothing can be taken out. Taking a part out can
  // make another fail (a security scheme an operation names): a few rounds.
  std::vector<std::string> removed;
  std::vector<skipped_part> skipped;
  constexpr int max_rounds = 8;
  for (int round = 0;; ++round) {
    detail::prune_plan plan;
    load_result result = load_once(file, opts, removed, round < max_rounds ? &plan : nullptr);
    if (result.ok() || !plan.complete || plan.pointers.empty()) {
      result.skipped.insert(result.skipped.begin(), skipped.begin(), skipped.end());
      if (!result.ok()) {
        // What was left out before does not make the remaining errors any
        // clearer: say them as they are, the skipped parts' errors first.
        for (auto it = skipped.rbegin(); it != skipped.rend(); ++it) {
          result.diagnostics.insert(result.diagnostics.begin(), it->error);
        }
      }
      return result;
    }
    removed.insert(removed.end(), plan.pointers.begin(), plan.pointers.end());
    skipped.insert(skipped.end(), plan.parts.begin(), plan.parts.end());
  }
}

}  // namespace conform::openapi
