import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "out/", "node_modules/", "*.vsix"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", setTimeout: "readonly", clearTimeout: "readonly", URL: "readonly", URLSearchParams: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      eqeqeq: "error",
      curly: "error",
    },
  },
  {
    // e2e scripts: Node, plus functions that playwright runs in the page.
    files: ["e2e/**/*.mjs"],
    languageOptions: { globals: { document: "readonly", Element: "readonly" } },
  },
  {
    // The views' script runs in the webview: the browser plus VS Code's messaging function.
    files: ["media/**/*.js"],
    languageOptions: { sourceType: "script", globals: { document: "readonly", acquireVsCodeApi: "readonly" } },
  },
  {
    // Pure modules are unit-tested under plain Node: they must never load the editor API.
    files: ["src/pure/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { paths: [{ name: "vscode", message: "src/pure/ runs without VS Code." }] }] },
  },
);
