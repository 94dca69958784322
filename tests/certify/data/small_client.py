#!/usr/bin/env python3
"""A client that does too little to meet the adversity planned for it: it
reads the first page of its tenants (retrying as it should) and stops. Its
certification lists the adversity it never met (issue 19, behaviour 6)."""
import json
import os
import sys
import time
import urllib.error
import urllib.request

with open(os.environ["CONFORM_PROFILE_JSON"], encoding="utf-8") as f:
    profile = json.load(f)
key = next(c["value"] for c in profile["credentials"]
           if c["scheme"] == "partner_key" and c.get("environment", "sandbox") == "sandbox"
           and not c.get("rate_limited"))
url = os.environ["CONFORM_BASE_URL"] + "/partner/tenants?page=1&per_page=20"
wait = 0.2
for attempt in range(6):
    try:
        with urllib.request.urlopen(urllib.request.Request(
                url, headers={"X-Partner-Api-Key": key}), timeout=10) as res:
            print("tenants:", res.status)
            sys.exit(0)
    except urllib.error.HTTPError as e:
        retry_after = e.headers.get("Retry-After")
        time.sleep(int(retry_after) if e.code == 429 and retry_after else wait)
        wait *= 2
sys.exit(1)
