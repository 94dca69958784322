"""The classification of bench/real-servers' failures: each distinct failure
goes to a root cause, and each root cause is true, false alarm or unclear,
with its reason (docs/real-servers.md shows them). A failure no rule takes
is "unclassified", to be looked at and given a rule."""
import re

# root cause id: (server, class, reason)
ROOTS = {
    # etcd, both configurations
    "etcd-undocumented": ("etcd", "true",
        "the description documents only 200 for every operation; etcd answers its errors as "
        "400/401/404/412/500 (the gRPC status mapped by grpc-gateway) with a JSON error body"),
    "etcd-lenient": ("etcd", "true",
        "grpc-gateway accepts what the description forbids: any Content-Type, a missing required "
        "body or a null one (taken as {}), null for any field (its default), a JSON number for an int64 string, "
        "bytes after the first JSON value ('{},' is accepted)"),
    "etcd-500-auth": ("etcd", "true",
        "the maintenance endpoints (hash, defragment, snapshot, alarm) answer 500 (gRPC Unknown) to a "
        "missing or invalid token where the others answer 400 or 401"),
    "etcd-500-stream": ("etcd", "true",
        "the streaming endpoints (watch, lease keepalive) answer 500 to a body they cannot decode (an "
        "int64 string field given \"\" or \"j\", a JSON array) where the unary ones answer 400"),
    "etcd-txn-null": ("etcd", "true",
        "POST /v3/kv/txn with a null element in compare ({\"compare\":[null]}) closes the connection "
        "without an answer (a handler panic)"),
    "etcd-crash": ("etcd", "true",
        "etcd 3.4.23 dies on POST /v3/maintenance/alarm {\"action\":\"ACTIVATE\"} (member 0, alarm "
        "NONE: an empty bbolt key, 'cannot put key into bucket (key required)') and cannot start again "
        "(the WAL replays it); every later request is refused"),
    "etcd-corrupt": ("etcd", "false alarm",
        "self-inflicted: the tool itself activated the CORRUPT alarm (POST /v3/maintenance/alarm "
        "{\"action\":\"ACTIVATE\",\"alarm\":\"CORRUPT\"}), after which etcd rightly refuses requests "
        "with 'corrupt cluster'"),
    "etcd-auth-config": ("etcd", "unclear",
        "the description requires the ApiKey (Authorization) on every operation; etcd as installed has "
        "authentication off (its default) and serves requests without one (2xx, or the 400/412 of a "
        "request it went on to process): right by the letter of the description, but the description "
        "cannot say that its security depends on a server setting"),
    "etcd-no-token-400": ("etcd", "true",
        "with authentication on, a request without a token is answered 400 'user name is empty', not 401"),
    "etcd-validate-first": ("etcd", "unclear",
        "with authentication on, a request without a token (or with a bad one) that etcd takes for "
        "invalid is refused 400/412 for that, before the credential is looked at: no access is granted. "
        "The description calls the request valid: it marks no field required (etcd requires key), types "
        "int64 fields as plain strings (Conform sends non-numeric ones), and cannot state "
        "preconditions (a bad leader transferee)"),
    "etcd-open-ops": ("etcd", "true",
        "with authentication on, etcd serves member list, status, the lease reads and keepalive, and an "
        "empty txn without a token; the description says every operation needs the ApiKey"),
    "etcd-self-authoff": ("etcd", "false alarm",
        "self-inflicted: the tool itself disabled authentication (POST /v3/auth/disable with root's "
        "token, 2xx), after which the token is rightly refused (401 'invalid auth token') and requests "
        "without a token rightly served"),
    "etcd-stream": ("etcd", "unclear",
        "streaming endpoints (watch, lease keepalive, snapshot): grpc-gateway keeps the response open "
        "(timeout) or sends newline-delimited JSON or nothing (not one JSON document); Swagger 2.0 cannot "
        "say so, the description says '(streaming responses)' in prose and x-stream-definitions"),
    "etcd-member-hang": ("etcd", "unclear",
        "member promote/remove with no body or a text/plain one (member 0) did not answer within 5 s"),
    "etcd-header-text": ("etcd", "true",
        "a malformed Authorization value (Schemathesis generates one for the ApiKey scheme) is answered "
        "400 'invalid header value' as text/plain, not the documented application/json"),
    # PowerDNS
    "pdns-404-text": ("pdns", "true",
        "a 404 (unknown server, zone or key) is text/plain 'Not Found' unless the request's Accept names "
        "application/json (Conform always sends that, Schemathesis 3.21 does not); the description "
        "documents a JSON Error for every 404"),
    # LoopBack
    "lb-undocumented": ("loopback", "true",
        "the description documents only 200/204; LoopBack answers invalid input 400 or 422, a wrong "
        "media type 415, an unknown id 404"),
    "lb-500-body": ("loopback", "true",
        "POST /todos answers 500 to a JSON null body, and to no body at all (the description does "
        "not require one)"),
    "lb-null": ("loopback", "true",
        "null is accepted (as absent) for the JSON-valued query parameters filter and where and for "
        "PATCH /todos's body, which the description types as objects"),
    "lb-fields": ("loopback", "true",
        "a fields filter (fields: {title: false}) returns todos without the properties the response "
        "schema requires"),
}

OPEN_OPS = {"MemberList", "Status", "LeaseLeases", "LeaseLeases2", "LeaseTimeToLive",
            "LeaseTimeToLive2", "LeaseKeepAlive", "Txn"}
OPEN_PATHS = {"/v3/cluster/member/list", "/v3/maintenance/status", "/v3/lease/leases",
              "/v3/kv/lease/leases", "/v3/lease/timetolive", "/v3/kv/lease/timetolive",
              "/v3/lease/keepalive", "/v3/kv/txn"}


def etcd(server, tool, r):
    ex, st, ck, cz, op = r["excerpt"], r["status"], r["check"], r["cause"], r["op"]
    auth_on = server == "etcd-auth"
    if "corrupt cluster" in ex:
        return "etcd-corrupt"
    if ck == "response_received" or "transport" in cz:
        if "/v3/kv/txn" in op and "closed" in cz:
            return "etcd-txn-null"
        if "connect" in cz or "closed" in cz:
            return "etcd-crash"
        if "/v3/watch" in op or "keepalive" in op:
            return "etcd-stream"
        if "/member/" in op:
            return "etcd-member-hang"
    if cz == "Response timeout":
        return "etcd-stream" if ("/v3/watch" in op or "keepalive" in op or "snapshot" in op) else "etcd-member-hang"
    if "body not JSON" in cz:
        return "etcd-stream"
    if st == 500 and ("invalid auth token" in ex or "user name is empty" in ex):
        return "etcd-500-auth"
    if cz == "Server error" and re.search(r"/v3/maintenance/(hash|snapshot|defragment|alarm)", op):
        # Schemathesis 3.21 shows another exchange's answer here (a 400 'invalid header value'
        # to its generated Authorization); the 500 is the invalid-token one of these endpoints.
        return "etcd-500-auth"
    if st == 500 and re.search(r"invalid character|unexpected end of JSON|cannot unmarshal|unexpected EOF", ex):
        return "etcd-500-stream"
    if ck in ("positive_data_acceptance", "auth_scope_matrix") and "invalid auth token" in ex:
        return "etcd-self-authoff"
    if ck == "auth_unauthenticated":
        if not auth_on:
            return "etcd-auth-config"
        if "user name is empty" in ex:
            return "etcd-no-token-400"
        if "2xx" in cz:
            if r["operation_id"] in OPEN_OPS or op.split(" ")[-1] in OPEN_PATHS:
                return "etcd-open-ops"
            return "etcd-self-authoff"
        if st in (400, 412):
            return "etcd-validate-first"
    if ck == "status_code_conformance" or cz == "Undocumented HTTP status code":
        return "etcd-undocumented"
    if cz == "Undocumented Content-Type" and "invalid header value" in ex:
        return "etcd-header-text"
    if ck == "negative_data_rejection":
        return "etcd-lenient"
    return None


def loopback(server, tool, r):
    ex, st, ck, cz, op = r["excerpt"], r["status"], r["check"], r["cause"], r["op"]
    if st == 500 or cz == "Server error":
        return "lb-500-body"
    if ck == "status_code_conformance" or cz == "Undocumented HTTP status code":
        return "lb-undocumented"
    if ck == "negative_data_rejection":
        return "lb-null"
    if (ck == "response_schema_conformance" and "required" in cz) or \
            (cz == "Response violates schema" and "fields" in r["curl"]):
        return "lb-fields"
    return None


def pdns(server, tool, r):
    if r["cause"] == "Undocumented Content-Type" and r["status"] == 404 and "Not Found" in r["excerpt"]:
        return "pdns-404-text"
    return None


BY_SERVER = {"etcd": etcd, "etcd-auth": etcd, "loopback": loopback, "pdns": pdns}


def classify(server, tool, r):
    """(root id, class, reason) of one distinct failure r."""
    f = BY_SERVER.get(server)
    root = f(server, tool, r) if f else None
    if root is None:
        return None, "unclassified", "no rule yet"
    return root, ROOTS[root][1], ROOTS[root][2]
