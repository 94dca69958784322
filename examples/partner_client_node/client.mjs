#!/usr/bin/env node
// An example partner integration on Node's own fetch (no package), written
// to be certified by `conform certify` (docs/certification.md). It reads the
// profile as JSON from CONFORM_PROFILE_JSON and the base URL from
// CONFORM_BASE_URL, and does what examples/partner_client does: tenants page
// by page; credit allocated and taken back (one Idempotency-Key per intent,
// kept on every retry); voice sessions cursor by cursor, then one by its
// id; campaigns page by page; a campaign created, launched once too early
// (422, not retried), given contacts (multipart/form-data through FormData
// and Blobs, each part with the content type `encoding` names) and launched.
//
// Retries: network failures, 429 (after Retry-After) and 5xx, at most 5
// times (x-retry max_retries); the n-th wait is 125 ms x 1.5^(n-1), with
// +-20 % jitter (so at least 100 ms, x-retry min_backoff_ms). After 5
// retries it gives up on that call, says so, and goes on. Exit 0 when every
// task ended as the description says, 1 otherwise.
//
// Correct variants that certification must pass (issue 31):
//   --rebuild-multipart  the import's FormData is given to fetch itself, which
//                        encodes it anew on every attempt (a new boundary);
//   --exit-on-give-up    after giving up on a call, report it with its
//                        request_id and exit 1, as batch jobs do;
//   --only sessions      read voice sessions (cursor by cursor) and one session;
//   --only credits       allocate and deallocate credit only.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';

const MAX_RETRIES = 5;
const EXIT_ON_GIVE_UP = process.argv.includes('--exit-on-give-up');
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const TRANSIENT = new Set([500, 502, 503, 504]);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function loadPartner(profile) {
  const env = profile.environment ?? 'sandbox';
  for (const c of profile.credentials) {
    if (c.scheme !== 'partner_key' || (c.environment ?? env) !== env) continue;
    if (!(c.scopes ?? []).includes('billing:partner:allocate') || c.rate_limited) continue;
    const tenant = profile.tenants[c.tenants[0]];
    return {
      key: c.value,
      tenantId: String(tenant.id),
      agentId: tenant.fixtures.agent_id,
      phoneNumberId: tenant.fixtures.phone_number_id,
    };
  }
  return null;
}

class Api {
  constructor(baseUrl, partner) {
    this.baseUrl = baseUrl;
    this.partner = partner;
  }

  async send(method, target, { tenantHeader = true, headers = {}, body } = {}) {
    const h = { 'X-Partner-Api-Key': this.partner.key, Accept: 'application/json', ...headers };
    if (tenantHeader) h['X-Tenant-Id'] = this.partner.tenantId;
    for (let attempt = 0; ; ++attempt) {
      let res = null;
      let text = null;
      try {
        res = await fetch(this.baseUrl + target, {
          method, headers: h, body, signal: AbortSignal.timeout(10000),
        });
        text = await res.text();
      } catch {
        res = null; // no answer
      }
      const status = res ? res.status : null;
      if (status !== null && status !== 429 && !TRANSIENT.has(status)) {
        return { status, headers: res.headers, text, gaveUp: false };
      }
      if (attempt === MAX_RETRIES) {
        console.error(`  gave up after ${attempt} retries: ${status ?? 'no answer'}`);
        if (EXIT_ON_GIVE_UP) {
          // A batch job's way: report the failure with the request_id to
          // escalate (section 7), and exit non-zero for the scheduler.
          const rid = res?.headers.get('x-request-id') ?? 'none';
          console.error(`${method} ${target} failed persistently (request_id ${rid}); stopping`);
          process.exit(1);
        }
        return { status, headers: res?.headers, text, gaveUp: true };
      }
      if (status === 429) {
        const wait = Number.parseInt(res.headers.get('retry-after') ?? '1', 10);
        await sleep((Number.isNaN(wait) ? 1 : wait) * 1000);
      } else {
        await sleep(125 * 1.5 ** attempt * (0.8 + 0.4 * Math.random()));
      }
    }
  }
}

const json = (r) => {
  try {
    return JSON.parse(r.text);
  } catch {
    return null;
  }
};
const shown = (r) => (r.gaveUp ? 'given up' : String(r.status));
const expected = (r, status) => r.gaveUp || r.status === status;

async function readPages(api, path, tenantHeader) {
  const items = [];
  for (let page = 1, pages = 1; page <= pages; ++page) {
    const r = await api.send('GET', `${path}?page=${page}&per_page=20`, { tenantHeader });
    const body = json(r);
    if (r.status !== 200 || !body) return { items: null, ok: r.gaveUp };
    items.push(...body.data.items);
    pages = body.meta.pages;
  }
  return { items, ok: true };
}

async function readSessions(api) {
  let cursor = null;
  let first = null;
  let count = 0;
  for (;;) {
    let target = '/voice_sessions?page_size=30&sort=-updated_at';
    if (cursor) target += `&cursor=${cursor}`;
    const r = await api.send('GET', target);
    const body = json(r);
    if (r.status !== 200 || !body) return { first: null, ok: r.gaveUp };
    if (first === null && body.data.items.length) first = body.data.items[0].id;
    count += body.data.items.length;
    cursor = body.data.next_cursor;
    if (!cursor) {
      console.log(`  ${count} sessions`);
      return { first, ok: true };
    }
  }
}

async function moveCredit(api, path, amount) {
  const r = await api.send('POST', path, {
    tenantHeader: false,
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `node-${randomUUID()}` },
    body: JSON.stringify({ tenant_id: Number(api.partner.tenantId), amount_major: amount }),
  });
  const replayed = r.headers?.get('idempotent-replayed') ? ' (replayed)' : '';
  console.log(`  ${path} ${amount}: ${shown(r)}${replayed}`);
  return expected(r, 200);
}

async function importContacts(api, campaignId) {
  const form = new FormData();
  form.append('file', new Blob(['Phone,Given name\n+14155550100,Ada\n'], { type: 'text/csv' }),
    'contacts.csv');
  form.append('column_mapping', new Blob([JSON.stringify({ Phone: 'phone_e164', 'Given name': 'first_name' })],
    { type: 'application/json' }), 'column_mapping.json');
  form.append('bulk_call_campaign_id', campaignId);
  const key = { 'Idempotency-Key': `node-${randomUUID()}` };
  let r;
  if (process.argv.includes('--rebuild-multipart')) {
    // fetch encodes a FormData anew on every attempt: a new boundary, the
    // same parts, the same key.
    r = await api.send('POST', '/contacts/import', { headers: key, body: form });
  } else {
    // Encoded once: every attempt sends the same bytes.
    const encoded = new Response(form);
    const type = encoded.headers.get('content-type');
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    r = await api.send('POST', '/contacts/import', {
      headers: { 'Content-Type': type, ...key },
      body: bytes,
    });
  }
  console.log(`  imported contacts into ${campaignId}: ${shown(r)}`);
  return expected(r, 200);
}

async function main() {
  if (!process.env.CONFORM_PROFILE_JSON || !process.env.CONFORM_BASE_URL) {
    console.error('partner-client.mjs: CONFORM_PROFILE_JSON and CONFORM_BASE_URL must be set');
    return 2;
  }
  const partner = loadPartner(JSON.parse(readFileSync(process.env.CONFORM_PROFILE_JSON, 'utf8')));
  if (!partner) {
    console.error('partner-client.mjs: no partner key that may allocate credit');
    return 2;
  }
  const api = new Api(process.env.CONFORM_BASE_URL, partner);
  let ok = true;
  if (ONLY === 'sessions') { // an integration that only reads voice sessions
    const sessions = await readSessions(api);
    ok = sessions.ok;
    if (sessions.first) {
      const r = await api.send('GET', `/voice_sessions/${sessions.first}`);
      console.log(`  session ${sessions.first}: ${shown(r)}`);
      ok = expected(r, 200) && ok;
    }
    return ok ? 0 : 1;
  }
  if (ONLY === 'credits') { // an integration that only moves credit with its partner key
    ok = await moveCredit(api, '/billing/allocate-credits', 25);
    ok = (await moveCredit(api, '/billing/deallocate-credits', 10)) && ok;
    return ok ? 0 : 1;
  }

  console.log('1. tenants');
  ok = (await readPages(api, '/partner/tenants', false)).ok && ok;
  console.log('2. credit');
  ok = (await moveCredit(api, '/billing/allocate-credits', 25)) && ok;
  ok = (await moveCredit(api, '/billing/deallocate-credits', 10)) && ok;
  console.log('3. voice sessions');
  const sessions = await readSessions(api);
  ok = sessions.ok && ok;
  if (sessions.first) {
    const r = await api.send('GET', `/voice_sessions/${sessions.first}`);
    console.log(`  session ${sessions.first}: ${shown(r)}`);
    ok = expected(r, 200) && ok;
  }
  console.log('4. campaigns');
  ok = (await readPages(api, '/bulk_call_campaigns', true)).ok && ok;
  console.log('5. a new campaign');
  const created = await api.send('POST', '/bulk_call_campaigns', {
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `node-${randomUUID()}` },
    body: JSON.stringify({
      name: 'Node example campaign',
      agent_id: Number(partner.agentId),
      timezone: 'Europe/Paris',
      campaign_phone_number_ids: [Number(partner.phoneNumberId)],
    }),
  });
  const body = json(created);
  if (created.status !== 201 || !body) {
    console.log(`  create: ${shown(created)}`);
    ok = ok && created.gaveUp;
  } else {
    const launch = `/bulk_call_campaigns/${body.data.id}/launch`;
    const early = await api.send('POST', launch);
    console.log(`  created ${body.data.id}; launch: ${shown(early)} (no contacts yet: not retried)`);
    ok = expected(early, 422) && ok;
    if (await importContacts(api, body.data.id)) {
      const later = await api.send('POST', launch);
      console.log(`  launch with contacts: ${shown(later)}`);
      ok = expected(later, 200) && ok;
    } else {
      ok = false;
    }
  }
  console.log(ok ? 'every task ended as the description says' : 'some tasks failed');
  return ok ? 0 : 1;
}

process.exitCode = await main();
