// npm run package: the extension bundle, the bundled server for the target platform, then the .vsix.
//   node scripts/package.mjs [--target linux-x64|linux-arm64|darwin-x64|darwin-arm64|win32-x64]
//   (default linux-x64, the one the end-to-end run installs)
// The server is bundled by the Python that runs `python3` (3.11 or later, with pip).
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";

const at = process.argv.indexOf("--target");
const target = at > 0 ? process.argv[at + 1] : "linux-x64";
const { version } = JSON.parse(readFileSync("package.json", "utf8"));
const vsix = `lsp-agents-${version}.vsix`;
const run = (command, args) => execFileSync(command, args, { stdio: "inherit" });

run("node", ["esbuild.mjs", "--production"]);
run(process.env.LSP_AGENTS_PYTHON || "python3", ["scripts/bundle_server.py", "--target", target]);
run("npx", ["vsce", "package", "--target", target, "--allow-missing-repository", "--no-rewrite-relative-links", "--no-dependencies", "-o", vsix]);
console.log(`${vsix} (${target}): ${(statSync(vsix).size / 2 ** 20).toFixed(1)} MiB`);
