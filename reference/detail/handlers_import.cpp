// Contact import (D5.4): multipart CSV with a column mapping.
#include <algorithm>
#include <array>
#include <map>
#include <mutex>

#include "reference/detail/csv.hpp"
#include "reference/detail/handlers.hpp"
#include "reference/detail/util.hpp"

namespace conform::reference::detail {
namespace json = boost::json;

namespace {

constexpr std::array<std::string_view, 4> target_fields = {"phone_e164", "first_name", "last_name",
                                                           "email"};

reply bad_mapping(std::string_view message) {
  return error(422, "INVALID_COLUMN_MAPPING", message, nullptr,
               json::object{{"column_mapping", json::array{json::string(message)}}});
}

std::string trim(std::string s) {
  auto not_space = [](unsigned char c) { return c != ' ' && c != '\t'; };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

}  // namespace

reply import_contacts(request_ctx& ctx) {
  const auto& files = ctx.req.files;
  json::object errors;
  if (files.find("file") == files.end())
    errors["file"] = json::array{"is required (a CSV file part)"};
  if (files.find("column_mapping") == files.end()) {
    errors["column_mapping"] = json::array{"is required (a JSON object part)"};
  }
  if (!errors.empty()) {
    return error(422, "VALIDATION_ERROR", "the import is missing parts", nullptr,
                 std::move(errors));
  }
  // The mapping: source header -> target field.
  json::error_code ec;
  json::value mv = json::parse(files.find("column_mapping")->second.content, ec);
  if (ec || !mv.is_object()) return bad_mapping("column_mapping must be a JSON object");
  std::map<std::string, std::string> target_to_column;
  for (const auto& [column, target] : mv.as_object()) {
    if (!target.is_string()) return bad_mapping("every target field must be a string");
    std::string t(target.as_string());
    if (std::find(target_fields.begin(), target_fields.end(), t) == target_fields.end()) {
      return bad_mapping("unknown target field '" + t + "'");
    }
    if (!target_to_column.emplace(t, std::string(column)).second) {
      return bad_mapping("target field '" + t + "' is mapped twice");
    }
  }
  if (target_to_column.count("phone_e164") == 0 &&
      !ctx.state.fault_on(fault::unmapped_phone_accepted)) {
    return bad_mapping("phone_e164 must be mapped");
  }
  auto rows = parse_csv(files.find("file")->second.content);
  if (!rows) {
    const std::string& why = rows.error();
    return error(422, "INVALID_CSV", "the CSV file cannot be read: " + why, nullptr,
                 json::object{{"file", json::array{json::string(why)}}});
  }
  const auto& header = rows->front();
  std::map<std::string, std::size_t> column_index;
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (!column_index.emplace(trim(header[i]), i).second) {
      return error(422, "INVALID_CSV", "the CSV header repeats column '" + header[i] + "'", nullptr,
                   json::object{{"file", json::array{"duplicate header column"}}});
    }
  }
  std::map<std::string, std::size_t> target_index;
  for (const auto& [target, column] : target_to_column) {
    auto it = column_index.find(column);
    if (it == column_index.end()) {
      if (ctx.state.fault_on(fault::unknown_column_accepted)) continue;
      return bad_mapping("column '" + column + "' is not in the CSV header");
    }
    target_index[target] = it->second;
  }
  // The campaign the contacts join, if named.
  id_t campaign_id = 0;
  if (auto it = files.find("bulk_call_campaign_id"); it != files.end()) {
    // Exactly the id's digits, as the schema's pattern says: " 4001" is refused.
    campaign_id = parse_id(it->second.content);
    if (campaign_id == 0) return validation_error("bulk_call_campaign_id", "must be a campaign id");
  }
  std::unique_lock lock(ctx.state.data.mutex);
  tenant* t = ctx.state.data.find_tenant(ctx.tenant_id);
  if (t == nullptr) return error(404, "TENANT_NOT_FOUND", "no such tenant");
  campaign* target_campaign = nullptr;
  if (campaign_id != 0) {
    auto it = t->campaigns.find(campaign_id);
    if (it == t->campaigns.end())
      return error(404, "CAMPAIGN_NOT_FOUND", "no such bulk call campaign");
    target_campaign = &it->second;
  }
  json::array row_errors;
  std::int64_t imported = 0, rejected = 0;
  const std::int64_t now = now_seconds();
  for (std::size_t r = 1; r < rows->size(); ++r) {
    const auto& row = (*rows)[r];
    auto cell = [&](const std::string& target) -> std::optional<std::string> {
      auto it = target_index.find(target);
      if (it == target_index.end() || it->second >= row.size()) return std::nullopt;
      std::string v = trim(row[it->second]);
      if (v.empty()) return std::nullopt;
      return v;
    };
    auto phone = cell("phone_e164");
    if (!phone || !is_e164(*phone)) {
      ++rejected;
      row_errors.push_back(
          json::object{{"row", r + 1},
                       {"field", "phone_e164"},
                       {"message", phone ? "not an E.164 phone number" : "missing phone number"}});
      continue;
    }
    contact c;
    c.id = ctx.state.data.new_id();
    c.phone_e164 = *phone;
    c.first_name = cell("first_name");
    c.last_name = cell("last_name");
    c.email = cell("email");
    c.bulk_call_campaign_id = campaign_id;
    c.created_at = now;
    t->contacts.emplace(c.id, std::move(c));
    ++imported;
  }
  if (target_campaign != nullptr) {
    target_campaign->contact_count += imported;
    target_campaign->updated_at = now;
  }
  json::object data{{"import_id", std::to_string(ctx.state.data.new_id())},
                    {"status", "completed"},
                    {"imported_count", imported},
                    {"rejected_count", rejected},
                    {"errors", std::move(row_errors)}};
  if (campaign_id != 0) data["bulk_call_campaign_id"] = std::to_string(campaign_id);
  return ok(std::move(data));
}

}  // namespace conform::reference::detail
