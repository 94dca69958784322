// The loader on well-formed fixtures: 3.0 and 3.1 load to one model, $refs
// to a second file, recursion, typed YAML scalars, the matrix, lookups.

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "dump.hpp"
#include "openapi/loader.hpp"
#include "tests/openapi/support.hpp"

namespace conform::openapi {
namespace {

using test_support::messages;

using schema::json_type;

const std::string data = CONFORM_TEST_DATA_DIR;

api_spec load_ok(const std::string& file, const load_options& opts = {}) {
  load_result r = load(file, opts);
  EXPECT_TRUE(r.ok()) << messages(r);
  EXPECT_TRUE(r.diagnostics.empty()) << messages(r);
  if (!r.spec) throw std::runtime_error("load failed: " + file);
  return std::move(*r.spec);
}

const schema::schema& component(const api_spec& spec, const std::string& op_id, int status) {
  const operation* op = spec.find_operation(op_id);
  EXPECT_NE(op, nullptr);
  const response* resp = op->find_response(status);
  EXPECT_NE(resp, nullptr);
  const media_type* m = resp->find("application/json");
  EXPECT_NE(m, nullptr);
  EXPECT_NE(m->schema, nullptr);
  const schema::schema* s = m->schema;
  while (s->ref != nullptr) s = s->ref;
  return *s;
}

const schema::schema& prop(const schema::schema& s, const std::string& name) {
  const auto it = std::find_if(s.properties.begin(), s.properties.end(),
                               [&](const auto& p) { return p.first == name; });
  EXPECT_NE(it, s.properties.end()) << name;
  return *it->second;
}

TEST(spec_loader, openapi_3_0_and_3_1_load_to_the_same_model) {
  const api_spec v30 = load_ok(data + "/equiv/v30.yaml");
  const api_spec v31 = load_ok(data + "/equiv/v31.yaml");
  EXPECT_EQ(v30.openapi_version, "3.0.3");
  EXPECT_EQ(v31.openapi_version, "3.1.0");
  const std::string a = testing::dump(v30);
  const std::string b = testing::dump(v31);
  EXPECT_GT(a.size(), 1000u);
  EXPECT_EQ(a, b);
}

TEST(spec_loader, nullable_and_exclusive_bounds_map_onto_one_model) {
  for (const char* f : {"/equiv/v30.yaml", "/equiv/v31.yaml"}) {
    SCOPED_TRACE(f);
    const api_spec spec = load_ok(data + f);
    const schema::schema& pet = component(spec, "sellPet", 200);
    EXPECT_EQ(pet.location, "#/components/schemas/Pet");
    const schema::schema& tag = prop(pet, "tag");
    EXPECT_TRUE(tag.types.has(json_type::null));
    EXPECT_TRUE(tag.types.has(json_type::string));
    EXPECT_FALSE(tag.types.has(json_type::integer));
    const schema::schema& status = prop(pet, "status");
    ASSERT_EQ(status.enum_values.size(), 3u);
    EXPECT_TRUE(status.enum_values[2].is_null());
    const schema::schema& weight = prop(pet, "weight");
    EXPECT_FALSE(weight.minimum.has_value());
    EXPECT_FALSE(weight.maximum.has_value());
    EXPECT_EQ(weight.exclusive_minimum, 0.0);
    EXPECT_EQ(weight.exclusive_maximum, 100.0);
    const schema::schema& age = prop(pet, "age");
    ASSERT_EQ(age.examples.size(), 1u);
    EXPECT_EQ(age.examples[0].as_int64(), 3);
    ASSERT_TRUE(age.default_value.has_value());
    EXPECT_EQ(age.default_value->as_int64(), 1);
    EXPECT_TRUE(age.types.only(json_type::integer));
    EXPECT_FALSE(pet.additional_allowed);
    EXPECT_EQ(pet.required, (std::vector<std::string>{"id", "name"}));
    EXPECT_EQ(prop(pet, "id").pattern, "^[0-9]+$");
    EXPECT_EQ(prop(pet, "name").min_length, 1u);
    EXPECT_EQ(prop(pet, "name").max_length, 200u);
  }
}

TEST(spec_loader, yaml_scalars_keep_their_type_and_quoted_ones_stay_strings) {
  const api_spec spec = load_ok(data + "/equiv/v31.yaml");
  const schema::schema& codes = prop(component(spec, "sellPet", 200), "codes");
  ASSERT_NE(codes.items, nullptr);
  const auto& e = codes.items->enum_values;
  ASSERT_EQ(e.size(), 5u);
  EXPECT_TRUE(e[0].is_string());
  EXPECT_EQ(e[0].as_string(), "1");
  EXPECT_TRUE(e[1].is_int64());
  EXPECT_EQ(e[1].as_int64(), 2);
  EXPECT_TRUE(e[2].is_bool());
  EXPECT_TRUE(e[3].is_double());
  EXPECT_DOUBLE_EQ(e[3].as_double(), 1.5);
  EXPECT_TRUE(e[4].is_string());
  EXPECT_EQ(e[4].as_string(), "true");
  EXPECT_TRUE(codes.unique_items);
}

TEST(spec_loader, ref_to_a_file_beside_the_spec_is_loaded_once) {
  const api_spec spec = load_ok(data + "/equiv/v31.yaml");
  const schema::schema& pet = component(spec, "sellPet", 200);
  const schema::schema& owner_ref = prop(pet, "owner");
  EXPECT_EQ(owner_ref.ref_text, "common.yaml#/components/schemas/Owner");
  ASSERT_NE(owner_ref.ref, nullptr);
  const schema::schema& owner = *owner_ref.ref;
  EXPECT_EQ(owner.location, "#/components/schemas/Owner");
  EXPECT_NE(owner.pos.file.find("common.yaml"), std::string::npos);
  EXPECT_EQ(owner.pos.line, 5);
  // A second $ref to the same target shares its node: the file is read once.
  const operation* sell = spec.find_operation("sellPet");
  ASSERT_NE(sell, nullptr);
  ASSERT_TRUE(sell->body.has_value());
  const media_type* body = sell->body->find("application/json");
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(prop(*body->schema, "buyer").ref, &owner);
  // A local $ref inside the second file resolves in that file.
  const schema::schema& address_ref = prop(owner, "address");
  ASSERT_NE(address_ref.ref, nullptr);
  EXPECT_NE(address_ref.ref->pos.file.find("common.yaml"), std::string::npos);
  // Recursion through properties: Address.previous is Address itself.
  EXPECT_EQ(prop(*address_ref.ref, "previous").ref, address_ref.ref);
  // The response $ref into the other file shares the Error schema node.
  const operation* list = spec.find_operation("listPets");
  ASSERT_NE(list, nullptr);
  ASSERT_FALSE(list->responses.empty());
  EXPECT_EQ(list->responses.front().status, 0);  // "default" sorts first
  const media_type* m = list->responses.front().find("application/json");
  ASSERT_NE(m, nullptr);
  ASSERT_NE(m->schema, nullptr);
  ASSERT_NE(m->schema->ref, nullptr);
  EXPECT_EQ(m->schema->ref->location, "#/components/schemas/Error");
  EXPECT_EQ(list->responses.front().description, "Any error");
}

TEST(spec_loader, recursive_schema_through_properties_is_fine) {
  const api_spec spec = load_ok(data + "/equiv/v30.yaml");
  const schema::schema& pet = component(spec, "sellPet", 200);
  const schema::schema& parent = prop(pet, "parent");
  EXPECT_EQ(parent.ref, &pet);
  EXPECT_EQ(&parent.resolved(), &pet);
}

TEST(spec_loader, hash_covers_every_file_and_is_stable) {
  const api_spec a = load_ok(data + "/equiv/v31.yaml");
  const api_spec b = load_ok(data + "/equiv/v31.yaml");
  const api_spec c = load_ok(data + "/equiv/v30.yaml");
  EXPECT_EQ(a.hash.size(), 64u);
  EXPECT_TRUE(std::all_of(a.hash.begin(), a.hash.end(), [](char ch) {
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
  }));
  EXPECT_EQ(a.hash, b.hash);
  EXPECT_NE(a.hash, c.hash);
}

TEST(spec_loader, operation_extensions_are_typed) {
  const api_spec spec = load_ok(data + "/equiv/v31.yaml");
  const operation* list = spec.find_operation("listPets");
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(list->method, http::verb::get);
  EXPECT_EQ(list->path, "/pets");
  EXPECT_EQ(list->access, access_kind::read);
  EXPECT_EQ(list->family, "Pets");
  ASSERT_TRUE(list->paging.has_value());
  EXPECT_EQ(list->paging->kind, pagination::style::page);
  EXPECT_EQ(list->paging->page_param, "page");
  EXPECT_EQ(list->paging->size_param, "per_page");
  EXPECT_EQ(list->paging->default_size, 25);
  EXPECT_EQ(list->paging->min_size, 1);
  EXPECT_EQ(list->paging->max_size, 100);
  EXPECT_EQ(list->paging->items, "/data/items");
  EXPECT_EQ(list->paging->count, "/meta/count");
  EXPECT_EQ(list->paging->filter_params, std::vector<std::string>{"status"});
  EXPECT_EQ(list->tenant.from, tenant_context::source::header);
  EXPECT_EQ(list->tenant.name, "X-Tenant-Id");
  EXPECT_EQ(list->tenant.header_name, "X-Tenant-Id");
  EXPECT_EQ(list->tenant.missing_status, 422);
  EXPECT_EQ(list->tenant.missing_code, "TENANT_CONTEXT_REQUIRED");
  EXPECT_FALSE(list->idempotent.has_value());

  const operation* sell = spec.find_operation("sellPet");
  ASSERT_NE(sell, nullptr);
  EXPECT_EQ(sell->access, access_kind::write);
  ASSERT_TRUE(sell->idempotent.has_value());
  EXPECT_TRUE(sell->idempotent->required);
  EXPECT_EQ(sell->idempotent->header, "Idempotency-Key");
  EXPECT_EQ(sell->idempotent->missing_status, 422);
  EXPECT_EQ(sell->idempotent->missing_code, "IDEMPOTENCY_KEY_REQUIRED");
  EXPECT_EQ(sell->idempotent->max_key_length, 255u);
  ASSERT_TRUE(sell->transition.has_value());
  EXPECT_EQ(sell->transition->machine, "pet");
  // The path-level parameter is merged into the operation, x-resource typed.
  const parameter* id = sell->find_parameter("id", param_location::path);
  ASSERT_NE(id, nullptr);
  EXPECT_TRUE(id->required);
  ASSERT_TRUE(id->resource.has_value());
  EXPECT_EQ(id->resource->fixture, "pet_id");
  EXPECT_EQ(id->resource->not_found_code, "PET_NOT_FOUND");
  ASSERT_TRUE(sell->body.has_value());
  EXPECT_TRUE(sell->body->required);
  ASSERT_NE(sell->body->find("application/json"), nullptr);
  const response* refused = sell->find_response(422);
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(refused->error_codes,
            (std::vector<std::string>{"INVALID_STATE_TRANSITION", "IDEMPOTENCY_KEY_REQUIRED"}));
  const response* ok = sell->find_response(200);
  ASSERT_NE(ok, nullptr);
  ASSERT_EQ(ok->headers.size(), 1u);
  EXPECT_EQ(ok->headers[0].name, "Idempotent-Replayed");

  ASSERT_EQ(spec.state_machines.count("pet"), 1u);
  const state_machine& m = spec.state_machines.at("pet");
  EXPECT_EQ(m.initial, "available");
  ASSERT_EQ(m.transitions.size(), 1u);
  EXPECT_EQ(m.transitions[0].operation_id, "sellPet");
  EXPECT_EQ(m.refused_status, 422);
}

TEST(spec_loader, security_and_schemes_are_typed) {
  const api_spec spec = load_ok(data + "/equiv/v31.yaml");
  const security_scheme* bearer = spec.find_scheme("bearer");
  const security_scheme* key = spec.find_scheme_named_by("tenant_key");
  ASSERT_NE(bearer, nullptr);
  ASSERT_NE(key, nullptr);
  EXPECT_EQ(bearer->kind, security_scheme::type::http_bearer);
  EXPECT_EQ(bearer->header, "Authorization");
  EXPECT_EQ(bearer->role_claim, "role");
  EXPECT_EQ(bearer->read_only_roles, std::vector<std::string>{"viewer"});
  EXPECT_EQ(key->kind, security_scheme::type::api_key_header);
  EXPECT_EQ(key->header, "X-Api-Key");
  EXPECT_EQ(key->key_prefixes.at("production"), "tk_live_");
  EXPECT_EQ(spec.find_scheme_named_by("partner_key"), nullptr);
  EXPECT_EQ(key->credential_label, "tenant_key");
  EXPECT_EQ(key->credential, credential_kind::api_key);
  EXPECT_EQ(spec.credential_labels(), (std::vector<std::string>{"jwt", "tenant_key"}));

  const operation* list = spec.find_operation("listPets");
  ASSERT_NE(list, nullptr);
  EXPECT_TRUE(list->needs_credentials());
  EXPECT_EQ(list->accepted_schemes(), (std::vector<const security_scheme*>{bearer, key}));
  EXPECT_EQ(list->scopes_for(*key), std::vector<std::string>{"pets:read"});
  EXPECT_EQ(list->scopes_for(*bearer), std::vector<std::string>{});
  // sellPet writes no security: the root's (bearer only) applies.
  const operation* sell = spec.find_operation("sellPet");
  ASSERT_NE(sell, nullptr);
  EXPECT_TRUE(sell->security_declared);
  EXPECT_EQ(sell->accepted_schemes(), std::vector<const security_scheme*>{bearer});
  EXPECT_FALSE(sell->scopes_for(*key).has_value());
}

TEST(spec_loader, permission_matrix_beside_the_spec_is_read) {
  const api_spec spec = load_ok(data + "/equiv/v31.yaml");
  ASSERT_TRUE(spec.permissions.has_value());
  const auto* sell = spec.permissions->find_scope("pets:sell");
  ASSERT_NE(sell, nullptr);
  EXPECT_TRUE(sell->opt_in);
  EXPECT_FALSE(sell->default_grant);
  const auto* row = spec.permissions->find_operation("listPets");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->needs.at("tenant_key"), std::vector<std::string>{"pets:read"});
  EXPECT_FALSE(row->needs.at("jwt").has_value() && !row->needs.at("jwt")->empty());
  // The key types are the description's labels: no column of another API's.
  EXPECT_EQ(row->needs.count("partner_key"), 0u);
  EXPECT_EQ(spec.permissions->find_operation("nothing"), nullptr);
}

TEST(spec_loader, ref_siblings_merge_in_3_1_and_are_ignored_in_3_0) {
  const api_spec v31 = load_ok(data + "/siblings31.yaml");
  const api_spec v30 = load_ok(data + "/siblings30.yaml");
  const schema::schema& box31 = component(v31, "getBox", 200);
  const schema::schema& code31 = prop(box31, "code");
  EXPECT_EQ(code31.ref, nullptr);
  ASSERT_EQ(code31.all_of.size(), 1u);
  ASSERT_NE(code31.all_of[0]->ref, nullptr);
  EXPECT_EQ(code31.all_of[0]->ref->location, "#/components/schemas/Code");
  EXPECT_EQ(code31.max_length, 3u);
  // An annotation beside $ref does not make a composition.
  const schema::schema& described = prop(box31, "described");
  ASSERT_NE(described.ref, nullptr);
  EXPECT_TRUE(described.all_of.empty());

  const schema::schema& code30 = prop(component(v30, "getBox", 200), "code");
  ASSERT_NE(code30.ref, nullptr);
  EXPECT_EQ(code30.ref->location, "#/components/schemas/Code");
  EXPECT_FALSE(code30.max_length.has_value());
  EXPECT_FALSE(v30.find_operation("getBox")->needs_credentials());
  EXPECT_FALSE(v30.find_operation("getBox")->security_declared);
}

TEST(spec_loader, boolean_and_empty_schemas_and_const) {
  const api_spec spec = load_ok(data + "/siblings31.yaml");
  const schema::schema& box = component(spec, "getBox", 200);
  using form = schema::schema::boolean_form;
  EXPECT_EQ(prop(box, "anything").boolean, form::accept_all);
  EXPECT_EQ(prop(box, "nothing").boolean, form::reject_all);
  EXPECT_EQ(prop(box, "empty").boolean, form::accept_all);
  EXPECT_EQ(prop(box, "code").boolean, form::none);
  const schema::schema& answer = prop(box, "answer");
  ASSERT_TRUE(answer.const_value.has_value());
  EXPECT_EQ(answer.const_value->as_int64(), 42);
  EXPECT_EQ(answer.location, "#/components/schemas/Box/properties/answer");
  EXPECT_EQ(answer.pos.line, 19);
}

TEST(spec_loader, model_lookups) {
  EXPECT_EQ(parse_method("delete"), http::verb::delete_);
  EXPECT_EQ(parse_method("PATCH"), http::verb::patch);
  EXPECT_FALSE(parse_method("fetch").has_value());
  EXPECT_EQ(to_string(http::verb::delete_), "DELETE");
  EXPECT_EQ(to_string(param_location::header), "header");
  EXPECT_EQ(parse_credential_kind("api_key"), credential_kind::api_key);
  EXPECT_FALSE(parse_credential_kind("runtime").has_value());
  EXPECT_FALSE(parse_credential_kind("jwt").has_value());  // a label, not a kind
  EXPECT_EQ(to_string(credential_kind::mutual_tls), "mutual_tls");
  EXPECT_EQ(to_string(source_pos{"a.yaml", 3, 7}), "a.yaml:3:7");
  EXPECT_EQ(to_string(source_pos{"a.yaml", 0, 0}), "a.yaml");
  EXPECT_EQ(to_string(diagnostic{{"a.yaml", 1, 2}, severity::warning, "w"}),
            "a.yaml:1:2: warning: w");
}

TEST(spec_loader, an_empty_security_alternative_means_no_credentials_needed) {
  const api_spec spec = load_ok(data + "/anonymous.yaml");
  const operation* op = spec.find_operation("getItem");
  ASSERT_NE(op, nullptr);
  EXPECT_TRUE(op->security_declared);
  ASSERT_EQ(op->security.size(), 2u);
  EXPECT_FALSE(op->needs_credentials());
  EXPECT_EQ(op->accepted_schemes().size(), 1u);
}

TEST(spec_loader, missing_file_is_one_clear_error) {
  const load_result r = load(data + "/does-not-exist.yaml");
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.spec.has_value());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].message.find("cannot read"), std::string::npos);
  EXPECT_NE(r.diagnostics[0].message.find("does-not-exist.yaml"), std::string::npos);
}

TEST(spec_loader, required_matrix_that_is_missing_is_an_error) {
  load_options opts;
  opts.require_permissions = true;
  const load_result r = load(data + "/siblings31.yaml", opts);
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].message.find("permission matrix is required"), std::string::npos);
}

// A state machine's fixtures (a state -> a profile fixture) and a
// precondition's fixture, written in a description of their own so that the
// misspelt state below has a known line and column.
std::string machine_spec(const std::string& fixtures_block) {
  return "openapi: 3.1.0\n"
         "info: {title: Mini, version: 1.0.0}\n"
         "components:\n"
         "  securitySchemes:\n"
         "    bearer: {type: http, scheme: bearer, bearerFormat: JWT, x-credential: jwt, "
         "x-tenants: claimed}\n"
         "  x-state-machines:\n"
         "    item:\n"
         "      resource: item\n"
         "      read_operation: getItem\n"
         "      states: [new, done]\n"
         "      initial: new\n"
         "      transitions:\n"
         "        - {from: new, operation: finishItem, to: done}\n"
         "      preconditions:\n"
         "        - {operation: finishItem, error_code: ITEM_EMPTY, fixture: item_empty_id}\n"
         "        - {operation: finishItem, error_code: ITEM_LOCKED}\n"
         "      refused: {status: 422, error_code: INVALID_STATE_TRANSITION}\n" +
         fixtures_block +
         "paths:\n"
         "  /items/{id}:\n"
         "    parameters:\n"
         "      - {name: id, in: path, required: true, schema: {type: string}}\n"
         "    get:\n"
         "      operationId: getItem\n"
         "      x-family: Items\n"
         "      security: [{bearer: []}]\n"
         "      responses: {'200': {description: ok}}\n"
         "  /items/{id}/finish:\n"
         "    parameters:\n"
         "      - {name: id, in: path, required: true, schema: {type: string}}\n"
         "    post:\n"
         "      operationId: finishItem\n"
         "      x-family: Items\n"
         "      x-transition: {machine: item, parameter: id}\n"
         "      security: [{bearer: []}]\n"
         "      responses: {'200': {description: ok}}\n";
}

load_result load_text(const std::string& name, const std::string& text) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("conform-" + name + "-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(file) << text;
  load_result r = load(file);
  std::filesystem::remove(file);
  return r;
}

TEST(spec_loader, state_machine_fixtures_are_typed) {
  const load_result r = load_text("machine-fixtures", machine_spec("      fixtures:\n"
                                                                   "        new: item_new_id\n"
                                                                   "        done: item_done_id\n"
                                                                   "        x-assumption: ours\n"));
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_TRUE(r.diagnostics.empty()) << messages(r);
  const state_machine& m = r.spec->state_machines.at("item");
  EXPECT_EQ(m.fixtures,
            (std::map<std::string, std::string>{{"new", "item_new_id"}, {"done", "item_done_id"}}));
  ASSERT_EQ(m.preconditions.size(), 2u);
  EXPECT_EQ(m.preconditions[0].fixture, "item_empty_id");
  EXPECT_EQ(m.preconditions[1].fixture, "");
  EXPECT_EQ(m.read_operation_id, "getItem");
}

TEST(spec_loader, state_machine_without_fixtures_has_none) {
  const load_result r = load_text("machine-no-fixtures", machine_spec(""));
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_TRUE(r.spec->state_machines.at("item").fixtures.empty());
}

TEST(spec_loader, state_machine_fixture_of_an_unknown_state_is_an_error_at_its_key) {
  const load_result r =
      load_text("machine-bad-fixture", machine_spec("      fixtures:\n"
                                                    "        new: item_new_id\n"
                                                    "        finished: item_done_id\n"));
  EXPECT_FALSE(r.ok());
  const auto it = std::find_if(r.diagnostics.begin(), r.diagnostics.end(), [](const auto& d) {
    return d.level == severity::error && d.pos.line == 20 && d.pos.column == 9 &&
           d.message ==
               "state machine 'item': fixtures names 'finished', which is not one of "
               "its states";
  });
  EXPECT_NE(it, r.diagnostics.end()) << messages(r);
}

TEST(loader, parameter_styles_encodings_and_status_ranges) {
  const api_spec spec = load_ok(data + "/wire_features.yaml");
  const operation& op = *spec.find_operation("getThing");
  const parameter& id = *op.find_parameter("id", param_location::path);
  EXPECT_EQ(id.wire_style(), param_style::matrix);
  EXPECT_TRUE(id.wire_explode());
  const parameter& filter = *op.find_parameter("filter", param_location::query);
  EXPECT_EQ(filter.wire_style(), param_style::deep_object);
  const parameter& tags = *op.find_parameter("tags", param_location::query);
  EXPECT_EQ(tags.wire_style(), param_style::form);
  EXPECT_FALSE(tags.wire_explode());
  const parameter& next = *op.find_parameter("next", param_location::query);
  EXPECT_TRUE(next.allow_reserved);
  EXPECT_TRUE(next.allow_empty_value);
  EXPECT_TRUE(next.wire_explode());  // form's default
  EXPECT_EQ(op.find_parameter("q", param_location::query)->content_media, "application/json");
  const parameter& ids = *op.find_parameter("X-Ids", param_location::header);
  EXPECT_EQ(ids.wire_style(), param_style::simple);
  EXPECT_FALSE(ids.wire_explode());
  EXPECT_EQ(op.find_parameter("sid", param_location::cookie)->wire_style(), param_style::form);
  // default (0), the ranges 2XX (2) and 4XX (4), then 200, in that order.
  ASSERT_EQ(op.responses.size(), 4u);
  EXPECT_EQ(status_key(op.responses[1].status), "2XX");
  EXPECT_EQ(op.documented_response(200)->status, 200);
  EXPECT_EQ(op.documented_response(201)->status, 2);
  EXPECT_EQ(op.documented_response(404)->status, 4);
  EXPECT_EQ(op.documented_response(503)->status, 0);
  // 3.0 nullable on an object: null is a type it admits.
  EXPECT_TRUE(op.find_response(200)->content.at(0).schema->resolved().types.has(json_type::null));
  const media_type& form = spec.find_operation("postForm")->body->content.at(0);
  EXPECT_EQ(form.encoding.at("ids").style, param_style::pipe_delimited);
  EXPECT_EQ(form.encoding.at("ids").explode, false);
  EXPECT_TRUE(form.encoding.at("ids").allow_reserved);
  EXPECT_EQ(form.encoding.at("meta").content_type, "application/json");
}

TEST(loader, prefix_items_defs_and_dependent_required) {
  const api_spec spec = load_ok(data + "/wire_features31.yaml");
  const schema::schema& pair =
      spec.find_operation("getPair")->find_response(200)->content.at(0).schema->resolved();
  EXPECT_TRUE(pair.types.has(json_type::null));
  const schema::schema& items = pair.property("pair")->resolved();
  ASSERT_EQ(items.prefix_items.size(), 2u);
  EXPECT_EQ(items.prefix_items[1]->resolved().const_value, boost::json::value(3));
  EXPECT_EQ(items.items->resolved().boolean, schema::schema::boolean_form::reject_all);
  ASSERT_EQ(pair.dependent_required.size(), 1u);
  EXPECT_EQ(pair.dependent_required[0].first, "card");
  EXPECT_EQ(pair.dependent_required[0].second, std::vector<std::string>{"billing"});
}

TEST(loader, a_style_not_allowed_where_the_parameter_is_is_refused_with_its_position) {
  const load_result r = load(data + "/bad_style.yaml");
  EXPECT_FALSE(r.ok());
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(messages(r).find(":9:55: error: parameter 'p': style 'form' is not allowed in path"),
            std::string::npos)
      << messages(r);
}

std::string citing_spec(const std::string& root, const std::string& scheme_extra) {
  return "openapi: 3.1.0\n"
         "info: {title: t, version: '1'}\n"
         "paths: {}\n" +
         root +
         "components:\n"
         "  securitySchemes:\n"
         "    own: {type: apiKey, in: header, name: X-Own, x-credential: site_key, "
         "x-tenants: one}\n"
         "    many: {type: apiKey, in: header, name: X-Many, x-credential: org_key, "
         "x-tenants: named}\n"
         "    token: {type: http, scheme: bearer, bearerFormat: JWT, x-tenant-claim: orgs}\n"
         "    opaque: {type: http, scheme: bearer}\n"
         "    plain: {type: apiKey, in: header, name: X-Plain" +
         scheme_extra + "}\n";
}

TEST(spec_loader, rule_citations_are_read_as_text_or_rule_and_expected) {
  const load_result r = load_text(
      "citations", citing_spec("x-rule-citations:\n"
                               "  rule_a: \"section 1; D9.9\"\n"
                               "  rule_b: {rule: \"section 2\", expected: \"section 2.1\"}\n",
                               ""));
  ASSERT_TRUE(r.ok()) << messages(r);
  const auto* a = r.spec->rules.citation_of("rule_a");
  const auto* b = r.spec->rules.citation_of("rule_b");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->rule, "section 1; D9.9");
  EXPECT_EQ(a->expected, "");
  EXPECT_EQ(b->rule, "section 2");
  EXPECT_EQ(b->expected, "section 2.1");
  EXPECT_EQ(r.spec->rules.citation_of("rule_c"), nullptr);
}

TEST(spec_loader, a_malformed_rule_citation_is_refused_at_its_position) {
  for (const std::string bad : {"  rule_a: {expected: x}\n", "  rule_a: \"\"\n",
                                "  rule_a: [a, b]\n", "  rule_a: {rule: x, why: y}\n"}) {
    const load_result r = load_text("bad-citation", citing_spec("x-rule-citations:\n" + bad, ""));
    EXPECT_FALSE(r.diagnostics.empty()) << bad;
    EXPECT_NE(messages(r).find("x-rule-citations.rule_a"), std::string::npos) << bad << messages(r);
  }
}

TEST(spec_loader, tenant_reach_is_written_or_follows_the_tenant_claim) {
  using reach = security_scheme::tenant_reach;
  const load_result r = load_text("reach", citing_spec("", ", x-tenants: named"));
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_EQ(r.spec->find_scheme("own")->tenants, reach::one);
  EXPECT_EQ(r.spec->find_scheme("many")->tenants, reach::named);
  // A JWT whose claim lists its tenants: claimed, whatever its name.
  EXPECT_EQ(r.spec->find_scheme("token")->tenants, reach::claimed);
  EXPECT_EQ(r.spec->find_scheme("opaque")->tenants, reach::unknown);
  // Written, it says what a scheme without a label does.
  EXPECT_EQ(r.spec->find_scheme("plain")->tenants, reach::named);

  const load_result bad = load_text("bad-reach", citing_spec("", ", x-tenants: several"));
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(messages(bad).find("x-tenants must be one of one, named, claimed, none"),
            std::string::npos)
      << messages(bad);
}

TEST(spec_loader, a_credential_label_is_free_text_and_its_kind_follows_the_type) {
  const load_result r = load_text("labels", citing_spec("", ""));
  ASSERT_TRUE(r.ok()) << messages(r);
  const security_scheme* own = r.spec->find_scheme("own");
  EXPECT_EQ(own->credential_label, "site_key");
  EXPECT_EQ(own->credential, credential_kind::api_key);
  EXPECT_EQ(own->label(), "site_key");
  EXPECT_EQ(own->kind_name(), "site_key");
  EXPECT_TRUE(own->named_by("site_key"));
  EXPECT_FALSE(own->named_by("api_key"));  // a labelled scheme is named by its label
  EXPECT_EQ(r.spec->find_scheme_named_by("org_key"), r.spec->find_scheme("many"));
  // Unlabelled: the kind names it, and reports its key.
  const security_scheme* plain = r.spec->find_scheme("plain");
  EXPECT_EQ(plain->kind_name(), "api_key");
  EXPECT_EQ(plain->label(), "plain");
  EXPECT_EQ(r.spec->find_scheme_named_by("bearer"), r.spec->find_scheme("token"));
  EXPECT_TRUE(r.spec->find_scheme("token")->is_jwt());
  EXPECT_FALSE(r.spec->find_scheme("opaque")->is_jwt());
  EXPECT_EQ(r.spec->credential_labels(), (std::vector<std::string>{"site_key", "org_key"}));
}

TEST(spec_loader, a_label_without_x_tenants_says_what_to_add_at_its_position) {
  // As descriptions were written before labels were free: the label alone.
  const load_result r = load_text("old-label",
                                  "openapi: 3.1.0\n"
                                  "info: {title: t, version: '1'}\n"
                                  "paths: {}\n"
                                  "components:\n"
                                  "  securitySchemes:\n"
                                  "    key:\n"
                                  "      type: apiKey\n"
                                  "      in: header\n"
                                  "      name: X-Api-Key\n"
                                  "      x-credential: tenant_key\n");
  EXPECT_FALSE(r.ok());
  EXPECT_NE(messages(r).find(":10:21: error: security scheme 'key': x-credential "
                             "'tenant_key' needs x-tenants beside it"),
            std::string::npos)
      << messages(r);
  EXPECT_NE(messages(r).find("one (it acts for its own tenant alone)"), std::string::npos)
      << messages(r);
}

TEST(spec_loader, x_tenants_none_keeps_a_label_without_tenants) {
  const load_result r =
      load_text("none", citing_spec("", ", x-credential: shop_key, x-tenants: none"));
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_EQ(r.spec->find_scheme("plain")->tenants, security_scheme::tenant_reach::unknown);
  EXPECT_EQ(r.spec->find_scheme("plain")->label(), "shop_key");
}

TEST(spec_loader, a_label_is_no_other_kind_and_does_not_make_a_jwt) {
  const load_result other =
      load_text("other-kind", citing_spec("", ", x-credential: bearer, x-tenants: none"));
  EXPECT_FALSE(other.ok());
  EXPECT_NE(messages(other).find("x-credential 'bearer' is the word of another kind of "
                                 "credential (api_key is this scheme's)"),
            std::string::npos)
      << messages(other);
  const load_result jwt =
      load_text("jwt-label",
                "openapi: 3.1.0\n"
                "info: {title: t, version: '1'}\n"
                "paths: {}\n"
                "components:\n"
                "  securitySchemes:\n"
                "    token: {type: http, scheme: bearer, x-credential: jwt, x-tenants: claimed}\n");
  ASSERT_TRUE(jwt.ok()) << messages(jwt);
  EXPECT_FALSE(jwt.spec->find_scheme("token")->is_jwt());
  EXPECT_NE(messages(jwt).find(":6:55: warning: security scheme 'token': x-credential "
                               "'jwt' is a label and does not make the scheme a JWT"),
            std::string::npos)
      << messages(jwt);
}

}  // namespace
}  // namespace conform::openapi
