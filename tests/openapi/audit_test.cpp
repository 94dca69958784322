// The completeness audit (issue 32, item 1). Every numbered rule of the
// API's description and every product decision is held by Conform in one of
// three ways, listed in specs/audit.yaml: a constraint of
// specs/voice-api.yaml that cites it, a check of the catalogue that judges
// it, or a row of docs/api-choices.md saying why no check over HTTP does.
// The sources are the repository's copies (specs/sources/), so the test
// needs nothing outside the repository; when ../shared is beside it, the
// copies must be the same bytes. And a description text of the
// specification that states a rule ("must", "at most", ...) has a keyword
// on its node, or is listed in the audit with the reason it needs none.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/node.hpp"
#include "core/parse.hpp"
#include "suites/registry.hpp"

namespace conform::openapi::audit_test {
namespace {

namespace fs = std::filesystem;

const fs::path repo = fs::path(CONFORM_SPEC_DIR).parent_path();

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + p.string());
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

core::node parse(const fs::path& p) {
  auto doc = core::parse_document(read(p), p.string());
  if (doc.error) throw std::runtime_error(core::to_string(*doc.error));
  return std::move(doc.root);
}

// --- the ids of the sources ------------------------------------------------

/// The rules of the description: each `##`/`###` section with text of its
/// own ("1", "2.1", "4"), and each numbered item as "<section>.<n>".
std::vector<std::string> description_rules(const std::string& text) {
  static const std::regex heading(R"(^#{2,3} ([0-9]+(?:\.[0-9]+)*)\.? .*)");
  static const std::regex item(R"(^([0-9]+)\. .*)");
  std::vector<std::string> out;
  std::string section;
  bool own_text = false;
  auto close = [&] {
    if (!section.empty() && own_text) out.push_back(section);
  };
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, heading)) {
      close();
      section = m[1];
      own_text = false;
    } else if (line.rfind('#', 0) == 0) {
      close();
      section.clear();
    } else if (!section.empty() && std::regex_match(line, m, item)) {
      out.push_back(section + "." + m[1].str());
    } else if (line.find_first_not_of(" \t\r") != std::string::npos) {
      own_text = true;
    }
  }
  close();
  return out;
}

/// The decisions: "- D1.1 ..." items.
std::vector<std::string> decision_ids(const std::string& text) {
  static const std::regex item(R"(^- (D[0-9]+\.[0-9]+) .*)");
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, item)) out.push_back(m[1]);
  }
  return out;
}

/// Every decision id a text cites ("D2.6"; both ends of "D4.1-D4.3").
std::set<std::string> cited_decisions(const std::string& text) {
  static const std::regex id(R"((^|[^A-Za-z0-9_])(D[0-9]+\.[0-9]+)(?![0-9]))");
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), id); it != std::sregex_iterator();
       ++it) {
    out.insert((*it)[2]);
  }
  return out;
}

// --- citations ---------------------------------------------------------------

std::string escape(const std::string& s) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\-])");
  return std::regex_replace(s, special, R"(\$&)");
}

/// True when `text` cites `id`: a decision by its id (or inside a range
/// "D4.1-D4.3"); a section "N.M" as written ("section 4.1", "sections 8.2
/// and 8.4"); a numbered item "N.K" also as "section N rule K" (or "rules
/// 1 and K", "retry rule K"); a section "N" as "section N".
bool cites(const std::string& text, const std::string& id) {
  const std::string tail = "(?![0-9]|\\.[0-9])";
  if (id[0] == 'D') {
    if (std::regex_search(text, std::regex("(^|[^A-Za-z0-9_])" + escape(id) + tail))) return true;
    static const std::regex range(R"(D([0-9]+)\.([0-9]+)-D([0-9]+)\.([0-9]+))");
    const auto dot = id.find('.');
    const int group = std::stoi(id.substr(1, dot - 1));
    const int number = std::stoi(id.substr(dot + 1));
    for (auto it = std::sregex_iterator(text.begin(), text.end(), range);
         it != std::sregex_iterator(); ++it) {
      const auto& r = *it;
      if (std::stoi(r[1]) == group && std::stoi(r[3]) == group && std::stoi(r[2]) <= number &&
          number <= std::stoi(r[4]))
        return true;
    }
    return false;
  }
  const auto dot = id.rfind('.');
  if (dot == std::string::npos)
    return std::regex_search(text, std::regex("sections? " + id + tail));
  if (std::regex_search(text, std::regex("sections? (?:[^;]*[^A-Za-z0-9_.])?" + escape(id) + tail)))
    return true;
  const std::string section = id.substr(0, dot);
  const std::string rule = id.substr(dot + 1);
  return std::regex_search(text, std::regex("section " + escape(section) +
                                            "(?![0-9]|\\.[0-9])[^;]*rules? (?:[0-9]+(?:, | and "
                                            "|, and ))*" +
                                            rule + "(?![0-9])"));
}

/// The text of an x-assumption value: strings, and each entry's source and reason.
void assumption_text(const core::node& n, std::string& out) {
  if (n.is_scalar()) {
    out += n.text() + "\n";
  } else if (n.is_sequence()) {
    for (const auto& i : n.items()) assumption_text(i, out);
  } else if (n.is_map()) {
    out += n.get("source").text() + ": " + n.get("reason").text() + "\n";
  }
}

/// Every x-assumption and x-rule-citations text in the tree under `n`.
void citations_under(const core::node& n, std::string& out) {
  if (n.is_sequence()) {
    for (const auto& i : n.items()) citations_under(i, out);
  } else if (n.is_map()) {
    for (const auto& e : n.entries()) {
      if (e.key == "x-assumption") {
        assumption_text(e.value, out);
      } else if (e.key == "x-rule-citations") {
        for (const auto& c : e.value.entries()) {
          out += c.value.is_map()
                     ? c.value.get("rule").text() + "; " + c.value.get("expected").text()
                     : c.value.text();
          out += "\n";
        }
      } else {
        citations_under(e.value, out);
      }
    }
  }
}

/// The nodes on the way to a JSON pointer ("#/a/b~1c/0"), the root first;
/// empty when the pointer leads nowhere.
std::vector<const core::node*> walk(const core::node& root, const std::string& pointer) {
  std::vector<const core::node*> path{&root};
  if (pointer.rfind("#/", 0) != 0) return {};
  std::istringstream in(pointer.substr(2));
  std::string token;
  while (std::getline(in, token, '/')) {
    for (std::size_t at = 0; (at = token.find("~1", at)) != std::string::npos;)
      token.replace(at, 2, "/");
    for (std::size_t at = 0; (at = token.find("~0", at)) != std::string::npos;)
      token.replace(at, 2, "~");
    const core::node& here = *path.back();
    const core::node* next = nullptr;
    if (here.is_map()) {
      const auto& v = here.get(token);
      if (v.defined()) next = &v;
    } else if (here.is_sequence() && !token.empty() &&
               token.find_first_not_of("0123456789") == std::string::npos &&
               std::stoul(token) < here.size()) {
      next = &here.item(std::stoul(token));
    }
    if (next == nullptr) return {};
    path.push_back(next);
  }
  return path;
}

/// What a node cites: every citation under it, and the x-assumption of each
/// node on its way (the root's aside: it speaks for the whole document).
std::string citations_of(const std::vector<const core::node*>& path) {
  std::string out;
  citations_under(*path.back(), out);
  for (std::size_t i = 1; i + 1 < path.size(); ++i) {
    if (path[i]->is_map()) assumption_text(path[i]->get("x-assumption"), out);
  }
  return out;
}

// --- docs/api-choices.md -----------------------------------------------------

/// Rows of the table under "Not checked over HTTP": id -> reasons.
std::map<std::string, std::vector<std::string>> not_checked_rows(const std::string& doc) {
  std::map<std::string, std::vector<std::string>> out;
  std::istringstream in(doc);
  std::string line;
  bool in_table = false;
  static const std::regex row(R"(^\| `?(D?[0-9][0-9.]*)`? \|(.*)\|\s*$)");
  std::smatch m;
  while (std::getline(in, line)) {
    if (line.rfind('#', 0) == 0) in_table = line.find("Not checked over HTTP") != std::string::npos;
    if (in_table && std::regex_match(line, m, row)) out[m[1]].push_back(m[2]);
  }
  return out;
}

// --- the tests ---------------------------------------------------------------

class audit : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    audit_ = new core::node(parse(repo / "specs" / "audit.yaml"));
    spec_ = new core::node(parse(repo / "specs" / "voice-api.yaml"));
  }
  static void TearDownTestSuite() {
    delete audit_;
    delete spec_;
    audit_ = spec_ = nullptr;
  }
  static std::vector<std::string> source_ids() {
    auto ids = description_rules(read(repo / "specs" / "sources" / "voice-api-description.md"));
    for (auto& d : decision_ids(read(repo / "specs" / "sources" / "decisions.md")))
      ids.push_back(d);
    return ids;
  }
  static const core::node& rules() { return audit_->get("rules"); }
  static core::node* audit_;
  static core::node* spec_;
};

core::node* audit::audit_ = nullptr;
core::node* audit::spec_ = nullptr;

TEST(audit_sources, the_ids_are_read_as_the_audit_names_them) {
  const auto rules = description_rules(
      "# T\n\nintro\n\n## 1. What\n\ntext\n\n## 2. Parts\n\n### 2.1 One\n\n| a |\n\n"
      "### 4.3 Idem\n\n1. first\n2. second\n\n## 5. Auth\n\nRules:\n\n1. one\n");
  EXPECT_EQ(rules, (std::vector<std::string>{"1", "2.1", "4.3.1", "4.3.2", "5.1", "5"}));
  EXPECT_EQ(decision_ids("## D1 Shapes\n- D1.1 Every 2xx\n  - D1.9 nested\n- D1.2 Lists\n"),
            (std::vector<std::string>{"D1.1", "D1.2"}));
  EXPECT_EQ(cited_decisions("D2.6, (D4.1-D4.3) and D1.2/D3.1; not XD9.9"),
            (std::set<std::string>{"D2.6", "D4.1", "D4.3", "D1.2", "D3.1"}));
}

TEST(audit_sources, a_citation_names_its_id_in_any_of_the_usual_forms) {
  EXPECT_TRUE(cites("D6.1: an invalid request is 422", "D6.1"));
  EXPECT_TRUE(cites("decided with its rule (D2.6, D3.2, D4.1-D4.3)", "D4.2"));
  EXPECT_FALSE(cites("D4.1-D4.3", "D4.4"));
  EXPECT_FALSE(cites("D1.50", "D1.5"));
  EXPECT_TRUE(cites("section 5: missing credentials get 401 (rule 6)", "5.6"));
  EXPECT_TRUE(cites("section 7, retry rules 1 and 3; x-retry", "7.3"));
  EXPECT_TRUE(cites("sections 8.2 and 8.4; D3.1", "8.4"));
  EXPECT_TRUE(cites("section 4.3.1; D4.1", "4.3.1"));
  EXPECT_TRUE(cites("section 1: sandbox and production", "1"));
  EXPECT_FALSE(cites("section 4.1: fields", "4"));
  EXPECT_FALSE(cites("D4.1: required", "4.1"));
  EXPECT_FALSE(cites("section 5 rule 2", "5.6"));
}

TEST(audit_sources, the_copies_in_the_repository_are_the_sources) {
  const fs::path shared = repo.parent_path() / "shared";
  if (!fs::exists(shared / "decisions.md")) GTEST_SKIP() << "no ../shared beside the repository";
  EXPECT_EQ(read(repo / "specs" / "sources" / "decisions.md"), read(shared / "decisions.md"))
      << "specs/sources/decisions.md differs from ../shared/decisions.md: copy it again, and "
         "audit what changed";
  EXPECT_EQ(read(repo / "specs" / "sources" / "voice-api-description.md"),
            read(shared / "seed" / "voice-api-description.md"))
      << "specs/sources/voice-api-description.md differs from the seed: copy it again, and "
         "audit what changed";
}

TEST_F(audit, every_rule_and_decision_is_held_and_nothing_else_is_listed) {
  const auto ids = source_ids();
  ASSERT_GT(ids.size(), 60u) << "the sources gave too few ids to be whole";
  std::set<std::string> listed;
  for (const auto& e : rules().entries()) listed.insert(e.key);
  for (const auto& id : ids) {
    EXPECT_TRUE(listed.count(id)) << id << " is in none of the three lists of specs/audit.yaml";
  }
  const std::set<std::string> known(ids.begin(), ids.end());
  for (const auto& id : listed) {
    EXPECT_TRUE(known.count(id)) << "specs/audit.yaml lists " << id
                                 << ", which is no rule of the description and no decision";
  }
}

TEST_F(audit, every_decision_cited_anywhere_is_a_decision) {
  const auto ids = source_ids();
  const std::set<std::string> known(ids.begin(), ids.end());
  std::map<std::string, std::string> where;  // id -> first file citing it
  auto scan = [&](const fs::path& file) {
    for (const auto& id : cited_decisions(read(file)))
      where.emplace(id, fs::relative(file, repo).string());
  };
  // Two test files write made-up ids on purpose: this one, and the
  // loader's fixture of x-rule-citations ("D9.9").
  const std::set<std::string> made_up{"tests/openapi/audit_test.cpp",
                                      "tests/openapi/loader_test.cpp"};
  scan(repo / "README.md");
  for (const char* dir : {"docs", "specs", "reference", "suites", "harness", "tests", "cli"}) {
    for (const auto& e : fs::recursive_directory_iterator(repo / dir)) {
      const auto ext = e.path().extension().string();
      if (!e.is_regular_file() || e.path().parent_path().filename() == "sources" ||
          made_up.count(fs::relative(e.path(), repo).string()))
        continue;
      if (ext == ".md" || ext == ".yaml" || ext == ".yml" || ext == ".cpp" || ext == ".hpp")
        scan(e.path());
    }
  }
  ASSERT_FALSE(where.empty());
  for (const auto& [id, file] : where) {
    EXPECT_TRUE(known.count(id)) << file << " cites " << id << ", which decisions.md does not have";
  }
}

TEST_F(audit, each_way_of_holding_a_rule_is_real) {
  std::set<std::string> checks;
  const auto catalogue = suites::builtin_checks();
  for (const auto& e : catalogue.all()) checks.insert(e.info->name);
  const auto rows = not_checked_rows(read(repo / "docs" / "api-choices.md"));
  std::set<std::string> not_checkable;
  for (const auto& entry : rules().entries()) {
    const std::string& id = entry.key;
    const core::node& ways = entry.value;
    EXPECT_TRUE(ways.is_sequence() && ways.size() > 0) << id << ": no way of holding it";
    for (const auto& way : ways.items()) {
      if (way.is_scalar() && way.text() == "not checkable") {
        not_checkable.insert(id);
        continue;
      }
      const auto& spec = way.get("spec");
      const auto& check = way.get("check");
      if (spec.defined()) {
        const auto path = walk(*spec_, spec.text());
        if (path.empty()) {
          ADD_FAILURE() << id << ": " << spec.text() << " is nowhere in specs/voice-api.yaml";
          continue;
        }
        EXPECT_TRUE(cites(citations_of(path), id))
            << id << ": " << spec.text() << " (specs/voice-api.yaml:" << path.back()->line()
            << ") does not cite " << id << " in an x-assumption of its own or above it";
      } else if (check.defined()) {
        EXPECT_TRUE(checks.count(check.text()))
            << id << ": " << check.text() << " is no check of the catalogue";
      } else {
        ADD_FAILURE() << id << " (specs/audit.yaml:" << way.line()
                      << "): neither spec:, check: nor not checkable";
      }
    }
  }
  for (const auto& id : not_checkable) {
    const auto row = rows.find(id);
    EXPECT_TRUE(row != rows.end() &&
                row->second.front().find_first_not_of(" |") != std::string::npos)
        << id
        << " is not checkable, but docs/api-choices.md (\"Not checked over HTTP\") gives "
           "no reason";
  }
  for (const auto& row : rows) {
    EXPECT_TRUE(not_checkable.count(row.first))
        << "docs/api-choices.md says why " << row.first
        << " is not checked over HTTP, but specs/audit.yaml does not list it as not checkable";
  }
}

// --- a rule in prose where a keyword could carry it ----------------------------

struct prose_rule {
  std::string at;
  std::string word;
  std::uint32_t line = 0;
};

bool has_any(const core::node& n, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    if (n.get(k).defined()) return true;
  }
  return false;
}

/// True when `n` (or the schema it carries, for a parameter or a header)
/// has a keyword that can carry a rule said with `word`.
bool carried(const core::node& n, const std::string& word, bool required_by_parent) {
  const auto& schema = n.get("schema");
  auto on = [&](std::initializer_list<const char*> keys) {
    return has_any(n, keys) || (schema.is_map() && has_any(schema, keys));
  };
  if (word == "at most")
    return on({"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"});
  if (word == "at least")
    return on({"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"});
  if (word == "one of") return on({"enum", "const", "oneOf", "anyOf"});
  if (word == "required") {
    const auto& r = n.get("required");
    return required_by_parent || (r.is_sequence() && r.size() > 0) || r.text() == "true";
  }
  // "must": a constraint keyword beyond the type (which nearly every node
  // has), or an extension of ours that states one.
  if (on({"format",
          "pattern",
          "enum",
          "const",
          "minimum",
          "maximum",
          "exclusiveMinimum",
          "exclusiveMaximum",
          "multipleOf",
          "minLength",
          "maxLength",
          "minItems",
          "maxItems",
          "uniqueItems",
          "required",
          "additionalProperties",
          "minProperties",
          "maxProperties",
          "dependentRequired",
          "not",
          "oneOf",
          "anyOf"}))
    return true;
  for (const auto& e : n.entries()) {
    if (e.key.rfind("x-", 0) == 0 && e.key != "x-assumption" && e.key != "x-fixture" &&
        e.key != "x-family")
      return true;
  }
  return false;
}

void prose_rules(const core::node& n, const std::string& at, bool required_by_parent,
                 std::vector<prose_rule>& out) {
  static const std::regex word(R"(\b(must|at most|at least|one of|required)\b)", std::regex::icase);
  if (n.is_sequence()) {
    for (std::size_t i = 0; i < n.size(); ++i)
      prose_rules(n.item(i), at + "/" + std::to_string(i), false, out);
    return;
  }
  if (!n.is_map()) return;
  const auto& description = n.get("description");
  if (description.is_scalar()) {
    const std::string& text = description.text();
    std::set<std::string> seen;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), word);
         it != std::sregex_iterator(); ++it) {
      std::string w = (*it)[1];
      for (auto& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (seen.insert(w).second && !carried(n, w, required_by_parent))
        out.push_back({at, w, description.line()});
    }
  }
  std::set<std::string> required;
  for (const auto& r : n.get("required").items()) required.insert(r.text());
  for (const auto& e : n.entries()) {
    std::string key = e.key;
    for (std::size_t p = 0; (p = key.find('~', p)) != std::string::npos; p += 2)
      key.replace(p, 1, "~0");
    for (std::size_t p = 0; (p = key.find('/', p)) != std::string::npos; p += 2)
      key.replace(p, 1, "~1");
    if (e.key == "properties") {
      for (const auto& p : e.value.entries())
        prose_rules(p.value, at + "/properties/" + p.key, required.count(p.key) > 0, out);
    } else {
      prose_rules(e.value, at + "/" + key, false, out);
    }
  }
}

TEST_F(audit, no_rule_sits_in_prose_where_a_keyword_could_carry_it) {
  std::vector<prose_rule> found;
  prose_rules(*spec_, "#", false, found);
  std::map<std::pair<std::string, std::string>, std::string> allowed;
  for (const auto& a : audit_->get("prose").items()) {
    EXPECT_FALSE(a.get("why").text().empty())
        << "specs/audit.yaml:" << a.line() << ": an allowed prose rule says no why";
    allowed[{a.get("at").text(), a.get("word").text()}] = a.get("why").text();
  }
  std::set<std::pair<std::string, std::string>> used;
  for (const auto& f : found) {
    if (allowed.count({f.at, f.word})) {
      used.insert({f.at, f.word});
      continue;
    }
    ADD_FAILURE() << "specs/voice-api.yaml:" << f.line << ": " << f.at << " says \"" << f.word
                  << "\" in its description with no keyword on its node to carry it: encode "
                     "it, or list it under prose in specs/audit.yaml with why";
  }
  for (const auto& [key, why] : allowed) {
    EXPECT_TRUE(used.count(key)) << "specs/audit.yaml allows \"" << key.second << "\" at "
                                 << key.first << ", which no description says any more";
  }
}

}  // namespace
}  // namespace conform::openapi::audit_test
