import assert from "node:assert/strict";
import { test } from "node:test";
import { coalesce } from "../../src/pure/coalesce";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a burst of calls runs the task once", async () => {
  let runs = 0;
  const trigger = coalesce(async () => void runs++, 20);
  await Promise.all([trigger(), trigger(), trigger()]);
  assert.equal(runs, 1);
});

test("a call during a run schedules exactly one more run", async () => {
  let runs = 0;
  const trigger = coalesce(async () => {
    runs++;
    await sleep(40);
  }, 5);
  const first = trigger();
  await sleep(15); // the first run is in progress
  await Promise.all([first, trigger(), trigger()]);
  assert.equal(runs, 2);
});

test("every caller of a failed run sees the error", async () => {
  const trigger = coalesce(async () => {
    throw new Error("boom");
  }, 5);
  const results = await Promise.allSettled([trigger(), trigger()]);
  assert.deepEqual(results.map((r) => r.status), ["rejected", "rejected"]);
});
