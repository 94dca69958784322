#!/usr/bin/env python3
"""An example partner integration on the Python standard library only
(urllib.request, json), written to be certified by `conform certify`
(docs/certification.md). Without a YAML parser it reads the profile as JSON
from CONFORM_PROFILE_JSON, and the base URL from CONFORM_BASE_URL.

It does what examples/partner_client does: tenants page by page; credit
allocated and taken back (one Idempotency-Key per intent, kept on every
retry); voice sessions cursor by cursor, then one by its id; campaigns page
by page; a campaign created, launched once too early (422, not retried),
given contacts (multipart/form-data) and launched.

Retries: network failures, 429 (after Retry-After) and 5xx, at most 5 times
(x-retry max_retries), with "equal jitter": the n-th wait is random between
half and all of a bound that starts at 200 ms and grows by half each time
(so at least 100 ms, x-retry min_backoff_ms). After 5 retries it gives up on
that call, says so, and goes on. Exit 0 when every task ended as the
description says, 1 otherwise.

Correct variants that certification must pass (issue 31):
  --rebuild-multipart  the import's body is built anew on every attempt (a
                       new boundary, the same parts), as most HTTP libraries
                       build a form;
  --exit-on-give-up    after giving up on a call, report it with its
                       request_id and exit 1, as batch jobs do;
  --only sessions      read voice sessions (cursor by cursor) and one session;
  --only credits       allocate and deallocate credit only.
"""
import http.client
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
import uuid

MAX_RETRIES = 5
TRANSIENT = {500, 502, 503, 504}
EXIT_ON_GIVE_UP = "--exit-on-give-up" in sys.argv[1:]


class Outcome:
    def __init__(self, status=None, headers=None, body=None, gave_up=False):
        self.status, self.headers, self.body, self.gave_up = status, headers or {}, body, gave_up

    def json(self):
        try:
            return json.loads(self.body)
        except (TypeError, ValueError):
            return None

    def text(self):
        return "given up" if self.gave_up else str(self.status)

    def expected(self, status):
        return self.gave_up or self.status == status


class Api:
    def __init__(self, base_url, partner):
        self.base_url, self.partner = base_url, partner

    def send_once(self, method, target, headers, body):
        req = urllib.request.Request(self.base_url + target, data=body, method=method,
                                     headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                return res.status, dict(res.headers), res.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()
        except (urllib.error.URLError, http.client.HTTPException, OSError):
            return None, {}, None  # no answer

    def send(self, method, target, tenant_header=True, headers=None, body=None):
        h = {"X-Partner-Api-Key": self.partner["key"], "Accept": "application/json"}
        if tenant_header:
            h["X-Tenant-Id"] = self.partner["tenant_id"]
        h.update(headers or {})
        bound = 0.2
        for attempt in range(MAX_RETRIES + 1):
            payload = body
            if callable(body):  # a body built for each attempt, with its Content-Type
                h["Content-Type"], payload = body()
            status, res_headers, data = self.send_once(method, target, h, payload)
            if status == 429:
                wait = res_headers.get("Retry-After", "1")
                time.sleep(int(wait) if wait.isdigit() else 1)
                if attempt < MAX_RETRIES:
                    continue
            elif status is not None and status not in TRANSIENT:
                return Outcome(status, res_headers, data)
            if attempt == MAX_RETRIES:
                print("  gave up after %d retries: %s" % (attempt, status or "no answer"),
                      file=sys.stderr)
                if EXIT_ON_GIVE_UP:
                    # A batch job's way: report the failure with the request_id
                    # to escalate (section 7), and exit non-zero for the scheduler.
                    rid = res_headers.get("X-Request-Id") or "none"
                    print("%s %s failed persistently (request_id %s); stopping"
                          % (method, target, rid), file=sys.stderr)
                    sys.exit(1)
                return Outcome(status, res_headers, data, gave_up=True)
            if status != 429:
                time.sleep(random.uniform(bound / 2, bound))
                bound *= 1.5
        return Outcome(gave_up=True)


def read_pages(api, path, tenant_header):
    items, page, pages = [], 1, 1
    while page <= pages:
        r = api.send("GET", "%s?page=%d&per_page=20" % (path, page), tenant_header)
        body = r.json()
        if r.status != 200 or body is None:
            return None, r.gave_up
        items += body["data"]["items"]
        pages = body["meta"]["pages"]
        page += 1
    return items, True


def read_sessions(api):
    cursor, first, count = None, None, 0
    while True:
        target = "/voice_sessions?page_size=30&sort=-updated_at"
        if cursor:
            target += "&cursor=" + cursor
        r = api.send("GET", target)
        body = r.json()
        if r.status != 200 or body is None:
            return None, r.gave_up
        items = body["data"]["items"]
        if first is None and items:
            first = items[0]["id"]
        count += len(items)
        cursor = body["data"]["next_cursor"]
        if not cursor:
            print("  %d sessions" % count)
            return first, True


def move_credit(api, path, amount):
    body = json.dumps({"tenant_id": int(api.partner["tenant_id"]), "amount_major": amount})
    r = api.send("POST", path, False, {"Content-Type": "application/json",
                                       "Idempotency-Key": "py-" + uuid.uuid4().hex},
                 body.encode())
    print("  %s %s: %s%s" % (path, amount, r.text(),
                             " (replayed)" if "Idempotent-Replayed" in r.headers else ""))
    return r.expected(200)


def contacts_form(campaign_id):
    """The import's multipart body with a new boundary: (Content-Type, bytes)."""
    boundary = "py-" + uuid.uuid4().hex

    def part(name, ctype, content, filename=None):
        disposition = 'form-data; name="%s"' % name
        if filename:
            disposition += '; filename="%s"' % filename
        return ("--%s\r\nContent-Disposition: %s\r\nContent-Type: %s\r\n\r\n%s\r\n"
                % (boundary, disposition, ctype, content))

    body = (part("file", "text/csv", "Phone,Given name\n+14155550100,Ada\n", "contacts.csv")
            + part("column_mapping", "application/json",
                   json.dumps({"Phone": "phone_e164", "Given name": "first_name"}))
            + part("bulk_call_campaign_id", "text/plain", campaign_id)
            + "--%s--\r\n" % boundary)
    return "multipart/form-data; boundary=" + boundary, body.encode()


def import_contacts(api, campaign_id, rebuild):
    key = {"Idempotency-Key": "py-" + uuid.uuid4().hex}
    if rebuild:
        # Built anew on every attempt, as most HTTP libraries build a form:
        # a new boundary, the same parts, the same key.
        r = api.send("POST", "/contacts/import", True, key, lambda: contacts_form(campaign_id))
    else:
        ctype, body = contacts_form(campaign_id)
        r = api.send("POST", "/contacts/import", True, dict(key, **{"Content-Type": ctype}), body)
    print("  imported contacts into %s: %s" % (campaign_id, r.text()))
    return r.expected(200)


def load_partner(profile):
    env = profile.get("environment", "sandbox")
    for c in profile["credentials"]:
        if c["scheme"] != "partner_key" or c.get("environment", env) != env:
            continue
        if "billing:partner:allocate" not in c.get("scopes", []) or c.get("rate_limited"):
            continue
        tenant = profile["tenants"][c["tenants"][0]]
        return {"key": c["value"], "tenant_id": str(tenant["id"]),
                "agent_id": tenant["fixtures"]["agent_id"],
                "phone_number_id": tenant["fixtures"]["phone_number_id"]}
    return None


def main():
    if "CONFORM_PROFILE_JSON" not in os.environ or "CONFORM_BASE_URL" not in os.environ:
        print("partner-client.py: CONFORM_PROFILE_JSON and CONFORM_BASE_URL must be set",
              file=sys.stderr)
        return 2
    with open(os.environ["CONFORM_PROFILE_JSON"], encoding="utf-8") as f:
        partner = load_partner(json.load(f))
    if partner is None:
        print("partner-client.py: no partner key that may allocate credit", file=sys.stderr)
        return 2
    api = Api(os.environ["CONFORM_BASE_URL"], partner)
    ok = True
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv[1:-1] else None
    if only == "sessions":  # an integration that only reads voice sessions
        first, ok = read_sessions(api)
        if first:
            r = api.send("GET", "/voice_sessions/" + first)
            print("  session %s: %s" % (first, r.text()))
            ok = ok and r.expected(200)
        return 0 if ok else 1
    if only == "credits":  # an integration that only moves credit with its partner key
        ok = move_credit(api, "/billing/allocate-credits", 25)
        ok = move_credit(api, "/billing/deallocate-credits", 10) and ok
        return 0 if ok else 1

    print("1. tenants")
    tenants, done = read_pages(api, "/partner/tenants", False)
    ok = ok and done
    print("2. credit")
    ok = move_credit(api, "/billing/allocate-credits", 25) and ok
    ok = move_credit(api, "/billing/deallocate-credits", 10) and ok
    print("3. voice sessions")
    first, done = read_sessions(api)
    ok = ok and done
    if first:
        r = api.send("GET", "/voice_sessions/" + first)
        print("  session %s: %s" % (first, r.text()))
        ok = ok and r.expected(200)
    print("4. campaigns")
    campaigns, done = read_pages(api, "/bulk_call_campaigns", True)
    ok = ok and done
    print("5. a new campaign")
    body = json.dumps({"name": "Python example campaign", "agent_id": int(partner["agent_id"]),
                       "timezone": "Europe/Paris",
                       "campaign_phone_number_ids": [int(partner["phone_number_id"])]})
    created = api.send("POST", "/bulk_call_campaigns", True,
                       {"Content-Type": "application/json",
                        "Idempotency-Key": "py-" + uuid.uuid4().hex}, body.encode())
    if created.status != 201 or created.json() is None:
        print("  create: " + created.text())
        ok = ok and created.gave_up
    else:
        cid = created.json()["data"]["id"]
        launch = "/bulk_call_campaigns/%s/launch" % cid
        early = api.send("POST", launch)
        print("  created %s; launch: %s (no contacts yet: not retried)" % (cid, early.text()))
        ok = ok and early.expected(422)
        if import_contacts(api, cid, "--rebuild-multipart" in sys.argv[1:]):
            later = api.send("POST", launch)
            print("  launch with contacts: " + later.text())
            ok = ok and later.expected(200)
        else:
            ok = False
    print("every task ended as the description says" if ok else "some tasks failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
