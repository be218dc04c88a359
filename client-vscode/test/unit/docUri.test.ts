import assert from "node:assert/strict";
import { test } from "node:test";
import { parseViewQuery, viewUriParts } from "../../src/pure/docUri";

test("a view URI round-trips and is titled after the file", () => {
  const request = { kind: "prompt" as const, target: "file:///ws/packages/api/src/server%20main.ts", harness: "codex" as const };
  const parts = viewUriParts(request);
  assert.equal(parts.path, "/server main.ts · codex · prompt.md");
  assert.deepEqual(parseViewQuery(parts.query), request);
});

test("the cascade view has no harness", () => {
  const parts = viewUriParts({ kind: "cascade", target: "file:///ws/a.ts" });
  assert.equal(parts.path, "/a.ts · cascade.md");
  assert.deepEqual(parseViewQuery(parts.query), { kind: "cascade", target: "file:///ws/a.ts", harness: undefined });
});

test("unknown kinds, harnesses or a missing target are rejected", () => {
  assert.equal(parseViewQuery("kind=other&target=file%3A%2F%2F%2Fa"), undefined);
  assert.equal(parseViewQuery("kind=prompt&target=file%3A%2F%2F%2Fa&harness=vim"), undefined);
  assert.equal(parseViewQuery("kind=prompt"), undefined);
});
