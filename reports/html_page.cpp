#include "reports/html_page.hpp"

#include "core/text.hpp"
#include "reports/detail_text.hpp"

namespace conform::reports::html {

namespace {

constexpr const char* style = R"css(
:root { --pass:#1a7f37; --fail:#cf222e; --skip:#9a6700; --info:#0969da; --line:#d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       margin: 0; color: #1f2328; background: #f6f8fa; }
header { padding: 20px 32px; color: #fff; }
header.pass { background: var(--pass); } header.fail { background: var(--fail); }
header.neutral { background: #24292f; }
header h1 { margin: 0 0 4px; font-size: 24px; }
header p { margin: 0; opacity: .92; }
main { padding: 8px 32px 40px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 16px 0;
          padding: 12px 18px; overflow-x: auto; }
h2 { font-size: 17px; margin: 6px 0 10px; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: left;
         vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px;
         font-weight: 600; color: #fff; white-space: nowrap; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); }
.badge.skip { background: var(--skip); } .badge.info { background: var(--info); }
.badge.none { background: #8c959f; }
.cell { display: inline-block; min-width: 22px; padding: 0 4px; margin: 1px; border-radius: 3px;
        color: #fff; font-size: 12px; text-align: center; }
.cell.pass { background: var(--pass); } .cell.fail { background: var(--fail); }
.cell.skip { background: var(--skip); } .cell.none { background: #8c959f; }
.cell.assumed { background: var(--info); }
.failure.assumed { border-left-color: var(--info); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; word-break: break-all; }
pre, code { font: 12px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 8px;
      white-space: pre-wrap; word-break: break-all; margin: 6px 0; }
.failure { border-left: 4px solid var(--fail); padding: 4px 12px; margin: 10px 0; }
.muted { color: #656d76; }
.timeline { position: relative; height: 28px; background: #f6f8fa; border: 1px solid var(--line);
            border-radius: 4px; margin: 8px 0 12px; }
.timeline .mark { position: absolute; top: 3px; width: 8px; height: 20px; border-radius: 2px; }
.mark.survived { background: var(--pass); } .mark.lost { background: var(--fail); }
)css";

}  // namespace

std::string escape(std::string_view text) {
  // XML's escaping is valid HTML (and shows stray control characters).
  return core::xml_escape(text);
}

std::string page(std::string_view title, std::string_view body) {
  std::string out = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + escape(title) + "</title>\n<style>" + style + "</style></head>\n<body>\n";
  out += body;
  out += "\n</body></html>\n";
  return out;
}

std::string badge(std::string_view kind, std::string_view text) {
  return "<span class=\"badge " + std::string(kind) + "\">" + escape(text) + "</span>";
}

}  // namespace conform::reports::html
