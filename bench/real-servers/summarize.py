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
        section, pending, last = None, [], None
        lines = open(f, errors="replace").read().splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"^_{3,} (.+?) _{3,}$", line.rstrip())
            if m:
                section, pending = m.group(1), []
                continue
            if re.match(r"^={3,} ", line):
                section = None if "SUMMARY" in line else section
                continue
            if not section:
                continue
            if re.match(r"^\d+\. Test Case ID", line):
                pending = []
            m = re.match(r"^- (.+?)\s*$", line)
            if m:
                key = (section, "", m.group(1))
                e = failures.setdefault(key, {"seeds": set(), "occurrences": 0, "example": {}})
                e["seeds"].add(seed)
                e["occurrences"] += 1
                pending.append(e)
                continue
            m = re.match(r"^\[(\d{3})\]", line)
            if m:
                for e in pending:
                    e["example"].setdefault("status", int(m.group(1)))
                    body = lines[i + 2].strip().strip("`") if i + 2 < len(lines) else ""
                    e["example"].setdefault("response_excerpt", body[:300])
                continue
            if line.strip().startswith("curl "):
                for e in pending:
                    e["example"].setdefault("curl", line.strip())
                    e["example"].setdefault("status", None)
                    e["example"].setdefault("response_excerpt", "")
                pending = []
        m = re.search(r"exit (\d+)\s*$", open(f).read())
        if m and int(m.group(1)) not in (0, 1):
            crashed.append(f"{os.path.basename(f)}: exit {m.group(1)}")
    return reached, requests, failures, crashed


def record(tool, key, e, ops, base):
    op, check, cause = key
    x = e["example"] or {}
    if not op and x.get("curl"):  # a stateful or scenario failure names no operation: its curl does
        m = re.search(r"-X (\w+) '([^']+)'", x["curl"])
        if m:
            path = re.sub(r"^[a-z]+://[^/]+", "", m.group(2)).split("?")[0]
            found = op_of(ops, m.group(1), path)
            op = f"{found[0]} {found[1]}" if found else ""
    return {"op": op or "", "check": check or "", "cause": cause or "", "status": x.get("status"),
            "excerpt": str(x.get("response_excerpt") or ""), "operation_id": x.get("operation_id") or "",
            "mode": x.get("mode", ""), "curl": x.get("curl", "")}


def main(out):
    import classes
    rows, details, per_root = [], [], {}
    for d in sorted(glob.glob(os.path.join(out, "*/"))):
        name = os.path.basename(d.rstrip("/"))
        specs = [f for f in glob.glob(os.path.join(d, "*")) if re.search(r"(swagger|openapi).*\.(json|yaml)$", f)]
        if not specs:
            continue
        ops = load_spec(specs[0])
        for tool in ("conform", "conform-no-read-only", "conform-placeholder", "conform-excluding", "conform-destructive", "schemathesis"):
            if not glob.glob(os.path.join(d, f"{tool}-[0-9]*.txt")):
                continue
            sf = os.path.join(d, f"{tool}-survived.txt")
            survived = open(sf).read().strip() if os.path.exists(sf) else "?"
            if tool.startswith("conform"):
                reached, requests, failures, notes, crashed = conform(d, ops, tool)
            else:
                (reached, requests, failures, crashed), notes = schemathesis(d, ops), {}
            by_class, by_root, unclassified = {}, {}, []
            for key, e in failures.items():
                r = record(tool, key, e, ops, "")
                root, cls, _ = classes.classify(name, tool, r)
                by_class[cls] = by_class.get(cls, 0) + 1
                if root:
                    by_root[root] = by_root.get(root, 0) + 1
                    col = f"{name}/{tool}"
                    per_root.setdefault(root, {})[col] = per_root.setdefault(root, {}).get(col, 0) + 1
                else:
                    unclassified.append((key, e, r))
            roots = ", ".join(f"{k} ({v})" for k, v in sorted(by_root.items(), key=lambda kv: -kv[1]))
            rows.append(f"| {name} | {tool} | {len(reached)} of {len(ops)} | {requests} | {len(failures)} | "
                        f"{by_class.get('true', 0)} | {by_class.get('false alarm', 0)} | {by_class.get('unclear', 0)} | "
                        f"{by_class.get('unclassified', 0)} | {roots or '-'} | "
                        f"{len(notes) if tool.startswith('conform') else '-'} | {survived} | {'; '.join(crashed) or '-'} |")
            details.append(f"\n### {name} / {tool}\n")
            details.append("not reached: " + (", ".join(sorted(f"{m} {p}" for m, p, _ in ops
                                                             if f"{m} {p}" not in reached)) or "none"))
            details.append("")
            for (op, check, cause), e, r in sorted(unclassified, key=lambda t: tuple(map(str, t[0]))):
                details.append(f"- UNCLASSIFIED {r['op']} | {check or '-'} | {cause} [{r['mode'] or '-'}; status "
                               f"{r['status']}] {r['excerpt'][:160]} (seeds {','.join(sorted(e['seeds']))})")
                details.append(f"    {r['curl'][:400]}")
    print("| server | tool | operations reached (2xx) | requests | distinct failures | true | false alarm | unclear "
          "| unclassified | root causes (distinct failures) | notes | seeded data survived | crashes |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|---|---|")
    print("\n".join(rows))
    print("\n## Root causes\n")
    print("| root cause | class | reason | distinct failures (server/tool: count) |")
    print("|---|---|---|---|")
    for root, (server, cls, reason) in classes.ROOTS.items():
        counts = per_root.get(root, {})
        if counts:
            print(f"| {root} | {cls} | {reason} | " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())) + " |")
    print("\n## Per server and tool\n")
    print("\n".join(details))


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/conform-real-servers")
