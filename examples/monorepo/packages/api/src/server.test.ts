import { describe, expect, it } from "vitest";
import { buildServer } from "./server";

describe("buildServer", () => {
  it("answers /health", async () => {
    const response = await buildServer().inject({ method: "GET", url: "/health" });
    expect(response.json()).toEqual({ status: "ok" });
  });
});
