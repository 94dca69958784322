#!/usr/bin/env python3
"""Writes a generated-looking OpenAPI 3.0 description in JSON, the shape of a
large published API: N resources, each with list/create/get/update/delete
(5 operations), shared and inline schemas, descriptions, examples.

    python3 bench/make_big_spec.py 520 > /tmp/big.json   # 2,600 operations, ~9 MB

The same N always writes the same bytes (no randomness)."""
import json
import sys


def words(i, n):
    base = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "
            "incididunt ut labore et dolore magna aliqua").split()
    return " ".join(base[(i + k) % len(base)] for k in range(n))


def resource_schema(r, props):
    properties = {"id": {"type": "string", "description": words(r, 12), "example": f"r{r}_1"}}
    for p in range(props):
        kind = p % 4
        name = f"field_{p}"
        if kind == 0:
            properties[name] = {"type": "string", "maxLength": 200, "description": words(r + p, 16)}
        elif kind == 1:
            properties[name] = {"type": "integer", "format": "int64", "minimum": 0,
                                "description": words(r + p, 10)}
        elif kind == 2:
            properties[name] = {"type": "array", "items": {"type": "string"},
                                "description": words(r + p, 8)}
        else:
            properties[name] = {"type": "object", "properties": {
                "a": {"type": "string"}, "b": {"type": "boolean"},
                "c": {"type": "number", "description": words(p, 6)}}}
    return {"type": "object", "required": ["id"], "properties": properties,
            "description": words(r, 30)}


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 520
    paths, schemas = {}, {}
    schemas["Error"] = {"type": "object", "required": ["code", "message"], "properties": {
        "code": {"type": "integer"}, "message": {"type": "string"}}}
    err = {"description": "error", "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Error"}}}}
    for r in range(n):
        name = f"Resource{r}"
        schemas[name] = resource_schema(r, 44)
        ref = {"$ref": f"#/components/schemas/{name}"}
        one = {"description": "ok", "content": {"application/json": {"schema": ref}}}
        page = {"description": "ok", "content": {"application/json": {"schema": {
            "type": "object", "properties": {"items": {"type": "array", "items": ref},
                                             "next": {"type": "string", "nullable": True}}}}}}
        idp = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
        tag = f"group{r % 40}"
        paths[f"/v1/resource-{r}"] = {
            "get": {"operationId": f"list{name}", "tags": [tag], "summary": words(r, 6),
                    "description": words(r, 40),
                    "parameters": [
                        {"name": "limit", "in": "query", "schema": {"type": "integer",
                                                                  "minimum": 1, "maximum": 100}},
                        {"name": "cursor", "in": "query", "schema": {"type": "string"}}],
                    "responses": {"200": page, "default": err}},
            "post": {"operationId": f"create{name}", "tags": [tag], "summary": words(r, 5),
                     "requestBody": {"required": True, "content": {"application/json": {
                         "schema": ref}}},
                     "responses": {"201": one, "400": err, "default": err}},
        }
        paths[f"/v1/resource-{r}/{{id}}"] = {
            "parameters": [idp],
            "get": {"operationId": f"get{name}", "tags": [tag], "responses": {"200": one,
                                                                            "404": err}},
            "patch": {"operationId": f"update{name}", "tags": [tag],
                      "requestBody": {"content": {"application/json": {"schema": ref}}},
                      "responses": {"200": one, "404": err}},
            "delete": {"operationId": f"delete{name}", "tags": [tag],
                       "responses": {"204": {"description": "gone"}, "404": err}},
        }
    doc = {"openapi": "3.0.3", "info": {"title": "Generated big API", "version": "1.0.0"},
           "servers": [{"url": "https://api.example.com"}], "paths": paths,
           "components": {"schemas": schemas, "securitySchemes": {
               "bearer": {"type": "http", "scheme": "bearer"}}},
           "security": [{"bearer": []}]}
    json.dump(doc, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
