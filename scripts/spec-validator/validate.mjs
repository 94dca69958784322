// Validates OpenAPI 3.1 descriptions with a validator that is not Conform's:
//  1. the whole document against the official OpenAPI 3.1 JSON meta-schema,
//     with @seriousme/openapi-schema-validator (Ajv, JSON Schema 2020-12),
//     which also checks that every $ref resolves;
//  2. every Schema Object (components.schemas and each `schema` of a
//     parameter, header or media type) against the JSON Schema 2020-12
//     meta-schema (Ajv's own copy): the OAS 3.1 document schema does not
//     look inside Schema Objects.
// Usage: node validate.mjs FILE...   Exit: 0 valid, 1 invalid, 2 cannot run.
import { readFileSync } from "node:fs";
import { argv, exit } from "node:process";

let Validator, Ajv2020, YAML;
try {
  ({ Validator } = await import("@seriousme/openapi-schema-validator"));
  Ajv2020 = (await import("ajv/dist/2020.js")).default;
  YAML = (await import("yaml")).default;
} catch (e) {
  console.log(`openapi 3.1 meta-schema: not run: the validator is not installed (${e.message}); run bash scripts/spec-tools.sh`);
  exit(2);
}

const pkg = JSON.parse(
  readFileSync(new URL("./node_modules/@seriousme/openapi-schema-validator/package.json", import.meta.url)),
);

/** Every Schema Object a document holds, with its JSON pointer. */
function schemaObjects(doc) {
  const out = [];
  const esc = (k) => String(k).replaceAll("~", "~0").replaceAll("/", "~1");
  for (const [name, s] of Object.entries(doc?.components?.schemas ?? {})) {
    out.push([`/components/schemas/${esc(name)}`, s]);
  }
  const walk = (node, ptr) => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => walk(v, `${ptr}/${i}`));
    } else if (node && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) {
        if (ptr === "/components" && k === "schemas") continue;
        if (k === "schema" && v && typeof v === "object") out.push([`${ptr}/schema`, v]);
        else walk(v, `${ptr}/${esc(k)}`);
      }
    }
  };
  walk(doc, "");
  return out;
}

const files = argv.slice(2);
if (files.length === 0) {
  console.log("usage: node validate.mjs FILE...");
  exit(2);
}
const ajv = new Ajv2020({ strict: false, validateFormats: false });
let failed = 0;
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const validator = new Validator();
  const result = await validator.validate(text);
  const problems = [];
  if (validator.specificationVersion === undefined || !String(validator.specificationVersion).startsWith("3.1")) {
    problems.push(`/openapi: ${validator.specificationVersion ?? "missing"}, not 3.1.x`);
  }
  if (!result.valid) {
    const errors = Array.isArray(result.errors) ? result.errors : [{ instancePath: "", message: String(result.errors) }];
    for (const e of errors) {
      const extra = e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : "";
      problems.push(`${e.instancePath || "/"}: ${e.message}${extra}`);
    }
  }
  const doc = YAML.parse(text, { maxAliasCount: -1 });
  const schemas = schemaObjects(doc);
  for (const [ptr, s] of schemas) {
    if (!ajv.validateSchema(s)) {
      for (const e of ajv.errors ?? []) problems.push(`${ptr}${e.instancePath}: ${e.message} (JSON Schema 2020-12)`);
    }
  }
  if (problems.length === 0) {
    console.log(
      `${file}: valid OpenAPI ${validator.specificationVersion} (${pkg.name} ${pkg.version}; ` +
        `${schemas.length} Schema Objects valid JSON Schema 2020-12)`,
    );
  } else {
    failed++;
    for (const p of problems) console.log(`${file}: ${p}`);
  }
}
exit(failed ? 1 : 0);
