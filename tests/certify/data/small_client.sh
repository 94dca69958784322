#!/bin/sh
# A client that does too little to meet the adversity planned for it: it
# reads the first page of its tenants (retrying as it should) and stops. Its
# certification lists the adversity it never met (issue 19, behaviour 6).
# The first partner key of the profile is one that may read tenants.
key=$(grep -o '"pk_test_[^"]*"' "$CONFORM_PROFILE_JSON" | head -n 1 | tr -d '"')
for wait in 0.2 0.4 0.8 1.6 3.2; do
  code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Partner-Api-Key: $key" \
    "$CONFORM_BASE_URL/partner/tenants?page=1&per_page=20")
  case $code in
    200) echo "tenants: 200"; exit 0 ;;
    429) sleep 1 ;;
    *) sleep "$wait" ;;
  esac
done
exit 1
