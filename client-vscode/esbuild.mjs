// Bundles the extension into dist/extension.js (vscode stays external). --production minifies; --watch rebuilds.
import * as esbuild from "esbuild";

const production = process.argv.includes("--production");
const options = {
  entryPoints: ["src/extension.ts"],
  bundle: true,
  outfile: "dist/extension.js",
  external: ["vscode"],
  format: "cjs",
  platform: "node",
  target: "node20",
  minify: production,
  sourcemap: !production,
  logLevel: "info",
};
if (process.argv.includes("--watch")) {
  await (await esbuild.context(options)).watch();
} else {
  await esbuild.build(options);
}
