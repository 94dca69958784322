#!/usr/bin/env python3
"""Summarizes bench/real-servers/run.sh's output folder as Markdown.

Per server and tool: operations in the description, operations reached (at
least one judged request answered 2xx, over seeds 1-3), requests, distinct
failures (Conform: the report's failures, one per operation, check and cause;
Schemathesis: one per operation and failure title), and whether the seeded
data survived. Then every distinct failure, to be classed by hand in
docs/real-servers.md."""
import glob, json, os, re, sys

try:
    import yaml
    Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
except ImportError:  # Schemathesis needs PyYAML anyway
    yaml = None

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def load_spec(path):
    with open(path) as f:
        text = f.read()
    doc = json.loads(text) if path.endswith(".json") else yaml.load(text, Loader=Loader)
    base = doc.get("basePath", "") if "swagger" in doc else ""
    if "openapi" in doc:
        servers = doc.get("servers") or []
        if servers:
            base = re.sub(r"^[a-z]+://[^/]+", "", servers[0].get("url", ""))
    ops = []
    for p, item in (doc.get("paths") or {}).items():
        for m in METHODS:
            if m in item:
                rx = re.compile("^" + re.sub(r"\\\{[^/]*?\\\}", "[^/]+", re.escape(base.rstrip("/") + p)) + "$")
                ops.append((m.upper(), p, rx))
    return ops


def op_of(ops, method, path):
    best = None
    for m, p, rx in ops:
        if m == method and rx.match(path):
            if best is None or p.count("{") < best[1].count("{"):
                best = (m, p)
    return best


def conform(d, ops, prefix="conform"):
    reached, requests, failures, notes, crashed = set(), 0, {}, {}, []
    for f in sorted(glob.glob(os.path.join(d, prefix + "-[0-9]*.json"))):
        seed = re.search(r"-(\d+)\.json$", f).group(1)
        try:
            r = json.load(open(f))
        except Exception as e:  # no report: the console says why
            crashed.append(f"seed {seed}: no JSON report ({e.__class__.__name__})")
            continue
        requests += r.get("counts", {}).get("requests", 0)
        for row in r.get("reach", []):
            if row.get("succeeded", 0) > 0:
                reached.add(row["method_path"])
        for x in r.get("failures", []):
            key = (x.get("method_path"), x.get("check"), x.get("cause") or x.get("seen"))
            e = failures.setdefault(key, {"seeds": set(), "occurrences": 0, "example": x})
            e["seeds"].add(seed)
            e["occurrences"] += x.get("occurrences", 1)
        for x in r.get("notes", []):
            key = (x.get("method_path"), x.get("check"), x.get("cause"))
            notes.setdefault(key, set()).add(seed)
    for f in sorted(glob.glob(os.path.join(d, prefix + "-[0-9]*.txt"))):
        text = open(f).read()
        m = re.search(r"exit (\d+)\s*$", text)
        if m and int(m.group(1)) > 3:
            crashed.append(f"{os.path.basename(f)}: exit {m.group(1)}")
    return reached, requests, failures, notes, crashed


def schemathesis(d, ops):
    reached, requests, failures, crashed = set(), 0, {}, []
    for f in sorted(glob.glob(os.path.join(d, "schemathesis-[0-9]*.cassette.yaml"))):
        seed = re.search(r"schemathesis-(\d+)\.", f).group(1)
        try:
            cas = yaml.load(open(f), Loader=Loader) or {}
        except Exception as e:
            crashed.append(f"seed {seed}: unreadable cassette ({e.__class__.__name__})")
            continue
        for it in cas.get("http_interactions") or []:
            requests += 1
            req, resp = it.get("request", {}), it.get("response") or {}
            path = re.sub(r"^[a-z]+://[^/]+", "", req.get("uri", "")).split("?")[0]
            op = op_of(ops, req.get("method", ""), path)
            code = (resp.get("status") or {}).get("code")
            if op and code is not None and 200 <= int(code) < 300:
                reached.add(f"{op[0]} {op[1]}")
    for f in sorted(glob.glob(os.path.join(d, "schemathesis-[0-9]*.txt"))):
        seed = re.search(r"schemathesis-(\d+)\.txt", f).group(1)
        section = None
        for line in open(f, errors="replace"):
            m = re.match(r"^_{3,} (.+?) _{3,}$", line.rstrip())
            if m:
                section = m.group(1)
                continue
            if re.match(r"^={3,} (SUMMARY|ERRORS|FAILURES)", line):
                if "SUMMARY" in line:
                    section = None
                continue
            m = re.match(r"^- (.+?)\s*$", line)
            if section and m and not line.startswith("- -"):
                key = (section, "", m.group(1))
                e = failures.setdefault(key, {"seeds": set(), "occurrences": 0, "example": {}})
                e["seeds"].add(seed)
                e["occurrences"] += 1
            m = re.match(r"^(\w*(Error|Exception)\b.*|.*Timed out.*|.*Response timed out.*)$", line.strip())
            if section and m and section.startswith(("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")) and "Test Case ID" not in line:
                pass
        m = re.search(r"exit (\d+)\s*$", open(f).read())
        if m and int(m.group(1)) not in (0, 1):
            crashed.append(f"{os.path.basename(f)}: exit {m.group(1)}")
    return reached, requests, failures, crashed


def main(out):
    rows, details = [], []
    for d in sorted(glob.glob(os.path.join(out, "*/"))):
        name = os.path.basename(d.rstrip("/"))
        specs = [f for f in glob.glob(os.path.join(d, "*")) if re.search(r"(swagger|openapi).*\.(json|yaml)$", f)]
        if not specs:
            continue
        ops = load_spec(specs[0])
        for tool in ("conform", "conform-excluding", "conform-destructive", "schemathesis"):
            if not glob.glob(os.path.join(d, f"{tool}-[0-9]*.txt")):
                continue
            survived = open(os.path.join(d, f"{tool}-survived.txt")).read().strip() \
                if os.path.exists(os.path.join(d, f"{tool}-survived.txt")) else "?"
            if tool.startswith("conform"):
                reached, requests, failures, notes, crashed = conform(d, ops, tool)
            else:
                (reached, requests, failures, crashed), notes = schemathesis(d, ops), {}
            rows.append(f"| {name} | {tool} | {len(reached)} of {len(ops)} | {requests} | {len(failures)} | "
                        f"{len(notes) if tool.startswith('conform') else '-'} | {survived} | {'; '.join(crashed) or '-'} |")
            details.append(f"\n### {name} / {tool}\n")
            details.append("not reached: " + (", ".join(sorted(f"{m} {p}" for m, p, _ in ops
                                                             if f"{m} {p}" not in reached)) or "none"))
            details.append("")
            for (op, check, cause), e in sorted(failures.items(), key=lambda kv: tuple(map(str, kv[0]))):
                x = e["example"]
                extra = f" [{x.get('mode')}; status {x.get('status')}]" if x else ""
                details.append(f"- {op} | {check or '-'} | {cause}{extra} (seeds {','.join(sorted(e['seeds']))}, "
                               f"{e['occurrences']} occurrences)")
    print("| server | tool | operations reached (2xx) | requests | distinct failures | notes | seeded data survived | crashes |")
    print("|---|---|---|---:|---:|---:|---|---|")
    print("\n".join(rows))
    print("\n".join(details))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/conform-real-servers")
