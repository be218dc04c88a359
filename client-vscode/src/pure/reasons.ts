// Plain-English explanations of the server's "not loaded" reason codes (lsp_agents.core.model.Reason).
const REASONS: Record<string, string> = {
  "family-shadowed": "an earlier file name of the same family won",
  "name-shadowed": "an earlier name in the same directory won",
  "override-shadowed": "AGENTS.override.md wins over AGENTS.md",
  "global-shadowed": "an earlier global file won",
  "claude-md-present": "a CLAUDE.md here turns AGENTS.md off",
  "duplicate-path": "the same file is already loaded",
  "already-loaded": "already loaded earlier in the session",
  "budget-exhausted": "the byte budget was used up",
  "too-large": "too large",
  empty: "empty",
  "outside-boundary": "outside the project boundary",
  "below-cwd": "below the launch directory: loaded when the agent reads a file there",
  "not-configured": "the harness is not configured to read this name",
  disabled: "switched off by a setting or environment variable",
  "untrusted-folder": "the folder is not trusted",
  conditional: "a rule with globs: loaded when a matching file is read",
  "glob-no-match": "its globs do not match this file",
  "glob-not-evaluable": "its globs cannot be evaluated",
  "listed-only": "listed to the model, which must read it itself",
  "import-not-found": "import target not found",
  "import-cycle": "import cycle",
  "import-too-deep": "imports nested too deep",
  "import-not-approved": "external import not approved",
  "import-outside-root": "import outside the allowed root",
  "remote-not-fetched": "remote URL, not fetched",
  "remote-failed": "remote URL could not be fetched",
  missing: "missing",
  "not-regular-file": "not a regular file",
  "permission-denied": "permission denied",
  "symlink-loop": "symlink loop",
  unreadable: "unreadable",
};

/** "family-shadowed" → "family-shadowed: an earlier file name of the same family won". */
export function explainReason(code: string | null): string {
  if (!code) {
    return "not loaded";
  }
  const text = REASONS[code];
  return text ? `${code}: ${text}` : code;
}
