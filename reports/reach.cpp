#include "reports/reach.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "core/text.hpp"
#include "reports/detail_text.hpp"

namespace conform::reports {
namespace {

struct summary {
  std::vector<std::string> operations;  // in report order, once each
  std::set<std::string> reached;        // operations with a 2xx under any auth model
  /// Per auth model: operations reached, operations tried.
  std::map<std::string, std::pair<std::size_t, std::size_t>> per_auth;
  std::vector<std::string> auth_order;
  std::size_t links = 0, followed = 0;
};

summary summarise(const harness::run_report& report) {
  summary s;
  for (const auto& r : report.reach) {
    if (std::find(s.operations.begin(), s.operations.end(), r.operation_id) == s.operations.end()) {
      s.operations.push_back(r.operation_id);
    }
    if (r.reached()) s.reached.insert(r.operation_id);
    auto [it, added] = s.per_auth.try_emplace(r.auth_model, 0, 0);
    if (added) s.auth_order.push_back(r.auth_model);
    ++it->second.second;
    if (r.reached()) ++it->second.first;
  }
  s.links = report.links.size();
  for (const auto& l : report.links) s.followed += l.followed > 0 ? 1 : 0;
  return s;
}

std::string count_line(const summary& s) {
  return std::to_string(s.reached.size()) + " of " + std::to_string(s.operations.size()) +
         " operations answered 2xx";
}

}  // namespace

std::string reach_text(const harness::run_report& report, bool notes) {
  std::string out;
  if (notes && !report.info.learned.empty()) {
    out += "\nLearned (not stated by the profile or the command line)\n";
    for (const auto& n : report.info.learned) out += "  " + n + "\n";
  }
  if (report.reach.empty()) return out;
  const summary s = summarise(report);
  out += "\nReach: " + count_line(s) + "\n";
  // Reach counts judged requests only; a 2xx no check judged is said apart.
  std::set<std::string> unjudged;
  for (const auto& r : report.reach) {
    if (r.unjudged_succeeded > 0 && !s.reached.count(r.operation_id))
      unjudged.insert(r.operation_id);
  }
  if (!unjudged.empty()) {
    out += "  and " + std::to_string(unjudged.size()) +
           " more answered 2xx only to requests no check judged (not counted)\n";
  }
  // An auth model that sent nothing at all (no credential for it) is one line.
  std::set<std::string> silent;
  for (const auto& label : s.auth_order) {
    const auto& [reached, tried] = s.per_auth.at(label);
    const harness::operation_reach* first = nullptr;
    bool sent = false;
    for (const auto& r : report.reach) {
      if (r.auth_model != label) continue;
      if (!first) first = &r;
      sent = sent || r.sent > 0;
    }
    out += "  " + label + ": " + std::to_string(reached) + " of " + std::to_string(tried);
    if (!sent && first) {
      silent.insert(label);
      out += ", nothing sent (" + first->operation_id + ": " + first->why + ")";
    }
    out += "\n";
  }
  // Operations the write mode never sends (report.info.operations_held_back:
  // etcd's 28 POST actions in safe mode) are named on one line once there
  // are many; each has its own "not run" line that says why.
  const auto held_back = [](const harness::operation_reach& r) {
    return r.sent == 0 && r.why.rfind("not sent: safe mode: ", 0) == 0;
  };
  constexpr std::size_t held_back_listed = 8;
  std::vector<std::string> held;
  for (const auto& r : report.reach) {
    if (!r.reached() && !silent.count(r.auth_model) && held_back(r)) {
      held.push_back(r.operation_id + " as " + r.auth_model);
    }
  }
  const bool fold_held = held.size() > held_back_listed;
  bool header = false;
  for (const auto& r : report.reach) {
    if (r.reached() || silent.count(r.auth_model)) continue;
    if (fold_held && held_back(r)) continue;
    if (!header) out += "  not reached (operation as auth model: why)\n";
    header = true;
    out += "    " + r.operation_id + " as " + r.auth_model + ": " + r.why + "\n";
  }
  if (fold_held) {
    if (!header) out += "  not reached (operation as auth model: why)\n";
    out += "    " + std::to_string(held.size()) +
           " never sent in this write mode (see Not run for why): " + core::join(held) + "\n";
  }
  if (s.links > 0) {
    out += "Links: " + std::to_string(s.followed) + " of " + std::to_string(s.links) +
           " of the description followed\n";
    for (const auto& l : report.links) {
      if (l.followed > 0) continue;
      out += "  not followed: " + l.name + " (" + l.from_operation + " " + l.status + " -> " +
             (l.to_operation.empty() ? "?" : l.to_operation) + "): " + l.why + "\n";
    }
  }
  return out;
}

void add_reach_json(const harness::run_report& report, boost::json::object& out) {
  if (!report.info.learned.empty()) {
    boost::json::array notes;
    for (const auto& n : report.info.learned) notes.emplace_back(n);
    if (auto* run = out.if_contains("run"); run && run->is_object()) {
      run->as_object()["learned"] = std::move(notes);
    }
  }
  if (!report.reach.empty()) {
    boost::json::array reach;
    for (const auto& r : report.reach) {
      boost::json::object o{{"operation_id", r.operation_id},
                            {"method_path", r.method_path},
                            {"auth_model", r.auth_model},
                            {"reached", r.reached()},
                            {"sent", r.sent},
                            {"succeeded", r.succeeded},
                            {"unauthorized", r.unauthorized},
                            {"forbidden", r.forbidden},
                            {"not_found", r.not_found},
                            {"invalid", r.invalid},
                            {"other", r.other}};
      if (r.unjudged_succeeded > 0) o["unjudged_succeeded"] = r.unjudged_succeeded;
      if (!r.reached()) o["why"] = r.why;
      reach.push_back(std::move(o));
    }
    out["reach"] = std::move(reach);
  }
  if (!report.links.empty()) {
    boost::json::array links;
    for (const auto& l : report.links) {
      boost::json::object o{{"from_operation", l.from_operation},
                            {"status", l.status},
                            {"name", l.name},
                            {"to_operation", l.to_operation},
                            {"followed", l.followed}};
      if (l.followed == 0) o["why"] = l.why;
      links.push_back(std::move(o));
    }
    out["links"] = std::move(links);
  }
}

void read_reach_json(const boost::json::object& in, harness::run_report& report) {
  auto text = [](const boost::json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
  };
  auto number = [](const boost::json::object& o, const char* key) -> std::uint64_t {
    const auto* v = o.if_contains(key);
    if (v && v->is_uint64()) return v->get_uint64();
    if (v && v->is_int64() && v->get_int64() >= 0)
      return static_cast<std::uint64_t>(v->get_int64());
    return 0;
  };
  if (const auto* run = in.if_contains("run"); run && run->is_object()) {
    if (const auto* notes = run->as_object().if_contains("learned"); notes && notes->is_array()) {
      for (const auto& n : notes->get_array()) {
        if (n.is_string()) report.info.learned.emplace_back(n.get_string());
      }
    }
  }
  if (const auto* reach = in.if_contains("reach"); reach && reach->is_array()) {
    for (const auto& v : reach->get_array()) {
      if (!v.is_object()) continue;
      const auto& o = v.get_object();
      harness::operation_reach r;
      r.operation_id = text(o, "operation_id");
      r.method_path = text(o, "method_path");
      r.auth_model = text(o, "auth_model");
      r.sent = number(o, "sent");
      r.succeeded = number(o, "succeeded");
      r.unauthorized = number(o, "unauthorized");
      r.forbidden = number(o, "forbidden");
      r.not_found = number(o, "not_found");
      r.invalid = number(o, "invalid");
      r.other = number(o, "other");
      r.unjudged_succeeded = number(o, "unjudged_succeeded");
      r.why = text(o, "why");
      report.reach.push_back(std::move(r));
    }
  }
  if (const auto* links = in.if_contains("links"); links && links->is_array()) {
    for (const auto& v : links->get_array()) {
      if (!v.is_object()) continue;
      const auto& o = v.get_object();
      harness::link_use l;
      l.from_operation = text(o, "from_operation");
      l.status = text(o, "status");
      l.name = text(o, "name");
      l.to_operation = text(o, "to_operation");
      l.followed = number(o, "followed");
      l.why = text(o, "why");
      report.links.push_back(std::move(l));
    }
  }
}

void merge_reach(const harness::run_report& from, harness::run_report& into) {
  for (const auto& n : from.info.learned) {
    if (std::find(into.info.learned.begin(), into.info.learned.end(), n) ==
        into.info.learned.end()) {
      into.info.learned.push_back(n);
    }
  }
  for (const auto& r : from.reach) {
    auto it = std::find_if(into.reach.begin(), into.reach.end(), [&](const auto& x) {
      return x.operation_id == r.operation_id && x.auth_model == r.auth_model;
    });
    if (it == into.reach.end()) {
      into.reach.push_back(r);
      continue;
    }
    it->sent += r.sent;
    it->succeeded += r.succeeded;
    it->unauthorized += r.unauthorized;
    it->forbidden += r.forbidden;
    it->not_found += r.not_found;
    it->invalid += r.invalid;
    it->other += r.other;
    it->unjudged_succeeded += r.unjudged_succeeded;
    if (it->reached()) it->why.clear();
    if (!it->reached() && it->why.empty()) it->why = r.why;
  }
  for (const auto& l : from.links) {
    auto it = std::find_if(into.links.begin(), into.links.end(), [&](const auto& x) {
      return x.from_operation == l.from_operation && x.status == l.status && x.name == l.name;
    });
    if (it == into.links.end()) {
      into.links.push_back(l);
      continue;
    }
    it->followed += l.followed;
    if (it->followed > 0) it->why.clear();
  }
}

void write_reach_properties(const harness::run_report& report, std::ostream& out) {
  using core::xml_escape;
  for (std::size_t i = 0; i < report.info.learned.size(); ++i) {
    out << "    <property name=\"learned." << i + 1 << "\" value=\""
        << xml_escape(report.info.learned[i]) << "\"/>\n";
  }
  if (report.reach.empty()) return;
  const summary s = summarise(report);
  out << "    <property name=\"reach\" value=\"" << xml_escape(count_line(s)) << "\"/>\n";
  for (const auto& r : report.reach) {
    if (r.reached()) continue;
    out << "    <property name=\"not_reached." << xml_escape(r.operation_id + " as " + r.auth_model)
        << "\" value=\"" << xml_escape(r.why) << "\"/>\n";
  }
  if (s.links > 0) {
    out << "    <property name=\"links\" value=\"" << s.followed << " of " << s.links
        << " followed\"/>\n";
  }
}

std::string reach_html(const harness::run_report& report) {
  using core::xml_escape;
  if (report.reach.empty() && report.info.learned.empty()) return {};
  std::string out = "<section id=\"reach\"><h2>Reach</h2>\n";
  if (!report.info.learned.empty()) {
    out += "<p>Learned (not stated by the profile or the command line):</p><ul>\n";
    for (const auto& n : report.info.learned) out += "<li>" + xml_escape(n) + "</li>\n";
    out += "</ul>\n";
  }
  if (!report.reach.empty()) {
    const summary s = summarise(report);
    out += "<p>" + xml_escape(count_line(s)) + ".</p>\n";
    out +=
        "<table><thead><tr><th>operation</th><th>auth model</th><th>2xx</th><th>sent</th>"
        "<th>why not</th></tr></thead><tbody>\n";
    for (const auto& r : report.reach) {
      out += "<tr class=\"" + std::string(r.reached() ? "pass" : "fail") + "\"><td>" +
             xml_escape(r.operation_id) + "</td><td>" + xml_escape(r.auth_model) + "</td><td>" +
             std::to_string(r.succeeded) + "</td><td>" + std::to_string(r.sent) + "</td><td>" +
             xml_escape(r.why) + "</td></tr>\n";
    }
    out += "</tbody></table>\n";
    if (s.links > 0) {
      out += "<p>Links: " + std::to_string(s.followed) + " of " + std::to_string(s.links) +
             " followed.</p>\n";
    }
  }
  return out + "</section>\n";
}

}  // namespace conform::reports
