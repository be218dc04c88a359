// The `lsp-agents:` URIs of the read-only views: which view, for which file, which harness.
import * as path from "node:path";
import { isHarness, type Harness } from "./protocol";

export const SCHEME = "lsp-agents";

export type ViewKind = "prompt" | "reminders" | "cascade";

export interface ViewRequest {
  kind: ViewKind;
  /** The file URI (string form) the view is about. */
  target: string;
  harness?: Harness;
}

const TITLES: Record<ViewKind, string> = { prompt: "prompt", reminders: "reminders", cascade: "cascade" };

/** Path and query of the view's URI; the path ends in `.md` so the editor shows Markdown. */
export function viewUriParts(request: ViewRequest): { path: string; query: string } {
  const name = path.posix.basename(decodeURIComponent(new URL(request.target).pathname));
  const label = [name, request.harness, TITLES[request.kind]].filter(Boolean).join(" · ");
  const query = new URLSearchParams({ kind: request.kind, target: request.target, ...(request.harness ? { harness: request.harness } : {}) });
  return { path: `/${label}.md`, query: query.toString() };
}

export function parseViewQuery(query: string): ViewRequest | undefined {
  const params = new URLSearchParams(query);
  const kind = params.get("kind");
  const target = params.get("target");
  const harness = params.get("harness") ?? undefined;
  if ((kind !== "prompt" && kind !== "reminders" && kind !== "cascade") || !target) {
    return undefined;
  }
  if (harness !== undefined && !isHarness(harness)) {
    return undefined;
  }
  return { kind, target, harness };
}
