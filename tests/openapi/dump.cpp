#include "dump.hpp"

#include <boost/json/serialize.hpp>

#include <set>
#include <sstream>

namespace conform::openapi::testing {

namespace {

class dumper {
 public:
  explicit dumper(std::ostream& out) : out_(out) {}

  void schema(const schema::schema* s, int depth) {
    const std::string pad(static_cast<std::size_t>(depth) * 2, ' ');
    if (s == nullptr) {
      out_ << pad << "(none)\n";
      return;
    }
    if (s->ref != nullptr) {
      out_ << pad << "$ref " << s->ref_text << " -> " << s->ref->location << "\n";
      if (seen_.insert(s->ref).second) schema(s->ref, depth + 1);
      return;
    }
    out_ << pad << "schema " << s->location << " boolean=" << static_cast<int>(s->boolean)
         << " types=" << static_cast<int>(s->types.bits());
    if (s->const_value) out_ << " const=" << boost::json::serialize(*s->const_value);
    for (const auto& e : s->enum_values) out_ << " enum=" << boost::json::serialize(e);
    if (s->format) out_ << " format=" << *s->format;
    if (s->min_length) out_ << " minLength=" << *s->min_length;
    if (s->max_length) out_ << " maxLength=" << *s->max_length;
    if (s->pattern) out_ << " pattern=" << *s->pattern;
    if (s->minimum) out_ << " minimum=" << *s->minimum;
    if (s->maximum) out_ << " maximum=" << *s->maximum;
    if (s->exclusive_minimum) out_ << " exclusiveMinimum=" << *s->exclusive_minimum;
    if (s->exclusive_maximum) out_ << " exclusiveMaximum=" << *s->exclusive_maximum;
    if (s->multiple_of) out_ << " multipleOf=" << *s->multiple_of;
    if (s->min_items) out_ << " minItems=" << *s->min_items;
    if (s->max_items) out_ << " maxItems=" << *s->max_items;
    if (s->unique_items) out_ << " uniqueItems";
    for (const auto& r : s->required) out_ << " required=" << r;
    out_ << " additional=" << s->additional_allowed;
    if (s->default_value) out_ << " default=" << boost::json::serialize(*s->default_value);
    for (const auto& e : s->examples) out_ << " example=" << boost::json::serialize(e);
    out_ << "\n";
    if (s->items != nullptr) {
      out_ << pad << " items:\n";
      schema(s->items, depth + 1);
    }
    for (const auto& [name, p] : s->properties) {
      out_ << pad << " property " << name << ":\n";
      schema(p, depth + 1);
    }
    if (s->additional_properties != nullptr) schema(s->additional_properties, depth + 1);
    for (const auto* a : s->all_of) schema(a, depth + 1);
    for (const auto* a : s->any_of) schema(a, depth + 1);
    for (const auto* a : s->one_of) schema(a, depth + 1);
    if (s->not_schema != nullptr) schema(s->not_schema, depth + 1);
  }

  void operation(const openapi::operation& op) {
    out_ << "operation " << op.operation_id << " " << op.method_path() << " family=" << op.family
         << " access=" << static_cast<int>(op.access) << " jwt_only=" << op.jwt_only
         << " declared=" << op.security_declared << "\n";
    for (const auto& alt : op.security) {
      out_ << " security:";
      for (const auto& u : alt.schemes) {
        out_ << " " << u.scheme->name << "[";
        for (const auto& sc : u.scopes) out_ << sc << ",";
        out_ << "]";
      }
      out_ << "\n";
    }
    out_ << " tenant from=" << static_cast<int>(op.tenant.from) << " name=" << op.tenant.name
         << " header=" << op.tenant.header_name << " missing=" << op.tenant.missing_status << " "
         << op.tenant.missing_code << "\n";
    if (op.paging) {
      const auto& p = *op.paging;
      out_ << " paging style=" << static_cast<int>(p.kind) << " " << p.page_param << " "
           << p.cursor_param << " " << p.size_param << " " << p.default_size << " " << p.min_size
           << " " << p.max_size << " " << p.items << " " << p.count << " " << p.pages << " "
           << p.page << " " << p.next_cursor << " filters=" << p.filter_params.size() << "\n";
    }
    if (op.idempotent) {
      const auto& i = *op.idempotent;
      out_ << " idempotency " << i.header << " required=" << i.required << " " << i.missing_status
           << " " << i.missing_code << " " << i.max_key_length << "\n";
    }
    if (op.transition) {
      out_ << " transition " << op.transition->machine << " " << op.transition->parameter << "\n";
    }
    for (const auto& p : op.parameters) {
      out_ << " parameter " << p.name << " in=" << to_string(p.in) << " required=" << p.required;
      if (p.resource) out_ << " resource=" << p.resource->name << "/" << p.resource->fixture;
      out_ << "\n";
      schema(p.schema, 2);
    }
    if (op.body) {
      out_ << " body required=" << op.body->required << "\n";
      for (const auto& m : op.body->content) {
        out_ << "  media " << m.name << "\n";
        schema(m.schema, 2);
      }
    }
    for (const auto& r : op.responses) {
      out_ << " response " << r.status << " " << r.description << "\n";
      for (const auto& code : r.error_codes) out_ << "  error_code " << code << "\n";
      for (const auto& h : r.headers) out_ << "  header " << h.name << "\n";
      for (const auto& m : r.content) {
        out_ << "  media " << m.name << "\n";
        schema(m.schema, 2);
      }
    }
  }

 private:
  std::ostream& out_;
  std::set<const schema::schema*> seen_;
};

}  // namespace

std::string dump(const schema::schema& s) {
  std::ostringstream out;
  dumper(out).schema(&s, 0);
  return out.str();
}

std::string dump(const api_spec& spec) {
  std::ostringstream out;
  dumper d(out);
  out << "title=" << spec.title << " version=" << spec.version << "\n";
  for (const auto& s : spec.servers) out << "server " << s.url << "\n";
  for (const auto& s : spec.schemes) {
    out << "scheme " << s->name << " kind=" << static_cast<int>(s->kind) << " header=" << s->header
        << " credential=" << to_string(s->credential) << " label=" << s->credential_label
        << " jwt=" << s->is_jwt() << " tenants=" << static_cast<int>(s->tenants)
        << " roles=" << s->roles.size() << " prefixes=" << s->key_prefixes.size() << "\n";
  }
  for (const auto& [name, m] : spec.state_machines) {
    out << "machine " << name << " " << m.resource << " states=" << m.states.size()
        << " transitions=" << m.transitions.size() << " refused=" << m.refused_status << "\n";
  }
  for (const auto& op : spec.operations) d.operation(op);
  return out.str();
}

}  // namespace conform::openapi::testing
