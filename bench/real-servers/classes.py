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
        "preconditions (a bad leader transferee). Likewise UserGet {} without a token: etcd lets a "
        "user read their own record, takes the empty name asked for as the caller's own (none) and "
        "answers 412 'user name not found'; nothing is disclosed"),
    "etcd-open-ops": ("etcd", "true",
        "with authentication on, etcd serves member list, status, the lease reads and keepalive, and an "
        "empty txn without a token; the description says every operation needs the ApiKey"),
    "etcd-self-authoff": ("etcd", "false alarm",
        "self-inflicted: the tool itself disabled authentication (POST /v3/auth/disable with root's "
        "token, 2xx), after which the token is rightly refused (401 'invalid auth token') and requests "
        "without a token rightly served"),
    "etcd-placeholder-refused": ("etcd", "false alarm",
        "the run's own setup (TOOLS=conform-placeholder, etcd with authentication off): the placeholder "
        "Authorization given as the credential is not a token, and etcd with authentication off still "
        "refuses a token it does not know on Range and the auth reads (401 'invalid auth token'; HashKV: "
        "500, etcd-500-auth); Conform was told it is a sufficient credential, so its 401 to a valid "
        "request fails positive_data_acceptance and auth_scope_matrix"),
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
        "an error answer (a 404 for an unknown server, zone, key or route; likewise the 500 of "
        "pdns-500-cryptokey) is text/plain 'Not Found' / 'Internal Server Error' unless the request's "
        "Accept names application/json (Schemathesis 3.21 sends Accept: */*; Conform since d87daaa sends "
        "one request with Accept: */* and one with none per operation); the description documents a JSON "
        "Error for every 404 and 500"),
    "pdns-500-cryptokey": ("pdns", "true",
        "GET /servers/localhost/zones/{zone}/cryptokeys/{cryptokey_id} with a non-numeric id "
        "(cryptokey_id is a plain string in the description: 'BG', 'v') answers 500 Internal Server "
        "Error, not 404/422"),
    "pdns-500-max": ("pdns", "true",
        "GET /servers/localhost/search-data?q=T&max=conform (max not an integer) answers 500 Internal "
        "Server Error, not 400/422"),
    "pdns-lenient": ("pdns", "true",
        "PowerDNS accepts what the description forbids: search-data without its required max, "
        "includerings=conform and dnssec=conform where booleans are declared (answered 200)"),
    "pdns-export": ("pdns", "true",
        "GET .../zones/{zone_id}/export is described as a JSON string (produces application/json, schema "
        "type: string); PowerDNS answers a JSON object {\"zone\": \"...\"} to Accept: application/json and "
        "the zone as text/plain to Accept: */*"),
    "pdns-rrset-changetype": ("pdns", "true",
        "the description's RRSet requires changetype (and the Zone's rrsets use RRSet), but a zone read "
        "back (GET .../zones/{zone_id}) has no changetype in its rrsets: a request-only field marked required "
        "in a schema shared with responses"),
    "pdns-401-undocumented": ("pdns", "true",
        "every operation requires the X-API-Key (APIKeyHeader) and documents 400/404/422/500, but not "
        "the 401 {\"error\": \"Unauthorized\"} PowerDNS rightly answers without a key (seen on the "
        "requests the auth scenario sends without a credential: auth model 'scenario auth'); a "
        "description gap, the refusal itself is right"),
    "pdns-stats-items": ("pdns", "unclear",
        "GET .../statistics: the description writes the item schema as a list, items: [StatisticItem, "
        "MapStatisticItem, RingStatisticItem], which Swagger 2.0 does not allow (items is one schema) and "
        "which means 'one of these'; Conform reads it as a JSON Schema tuple (item 1 must be a "
        "MapStatisticItem, whose value is an array) and reports '/1/value: expected array, got string'. "
        "The answer fits the intent; the description is invalid there; Conform did not say so"),
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
    "lb-body-required": ("loopback", "true",
        "the description does not mark PUT /todos/{id}'s request body required (OpenAPI's default: "
        "optional), but LoopBack refuses a PUT without one 422 'title can't be blank': a valid request by "
        "the description refused (positive_data_acceptance)"),
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
        if "connect" in cz or "closed" in cz or "stopped answering" in cz:
            # "target stopped answering" (Conform since d87daaa): the request etcd took last.
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
        if tool == "conform-placeholder" and not auth_on:
            return "etcd-placeholder-refused"
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
    if ck == "positive_data_acceptance" and st == 422 and "--data" not in r["curl"] and \
            op == "PUT /todos/{id}":
        return "lb-body-required"
    if ck == "negative_data_rejection":
        return "lb-null"
    if (ck == "response_schema_conformance" and "required" in cz) or \
            (cz == "Response violates schema" and "fields" in r["curl"]):
        return "lb-fields"
    return None


def pdns(server, tool, r):
    ex, st, ck, cz, op = r["excerpt"], r["status"], r["check"], r["cause"], r["op"]
    st = int(st) if str(st or "").isdigit() else st
    if cz == "Undocumented Content-Type" and st == 404 and "Not Found" in ex:
        return "pdns-404-text"  # Schemathesis
    if op.endswith("/export") and (cz in ("content type text/plain", "body not JSON", "200 / type")):
        return "pdns-export"
    if st == 500 and "/cryptokeys/{cryptokey_id}" in op and ck == "not_a_server_error":
        return "pdns-500-cryptokey"
    if st in (404, 500) and cz in ("content type text/plain", "body not JSON") and \
            ("Not Found" in ex or "Internal Server Error" in ex):
        return "pdns-404-text"
    if st == 500 and "/search-data" in op:
        return "pdns-500-max"
    if ck == "negative_data_rejection":
        return "pdns-lenient"
    if ck == "response_schema_conformance" and "/rrsets/* required" in cz:
        return "pdns-rrset-changetype"
    if ck == "response_schema_conformance" and op.endswith("/statistics") and "value type" in cz:
        return "pdns-stats-items"
    if ck == "status_code_conformance" and cz == "undocumented status 401" and "Unauthorized" in ex:
        return "pdns-401-undocumented"
    return None


BY_SERVER = {"etcd": etcd, "etcd-auth": etcd, "loopback": loopback, "pdns": pdns}


def classify(server, tool, r):
    """(root id, class, reason) of one distinct failure r."""
    f = BY_SERVER.get(server)
    root = f(server, tool, r) if f else None
    if root is None:
        return None, "unclassified", "no rule yet"
    return root, ROOTS[root][1], ROOTS[root][2]
