// Writes ../hazard_dsl/serve/static/editor.LICENSES.txt: the licence of every package in the bundle.
import {readdirSync, readFileSync, writeFileSync, existsSync} from "node:fs";
import {join} from "node:path";

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
const parts = [];
for (const [path, info] of Object.entries(lock.packages)) {
  if (!path || info.dev) continue;
  const folder = path;
  const file = existsSync(folder) ? readdirSync(folder).find(f => /^licen[cs]e/i.test(f)) : null;
  const text = file ? readFileSync(join(folder, file), "utf8").trim() : `(${info.license || "no licence file"})`;
  parts.push(`${path.replace(/^node_modules\//, "")} ${info.version} — ${info.license || "?"}\n\n${text}\n`);
}
writeFileSync("../hazard_dsl/serve/static/editor.LICENSES.txt",
  "The packages bundled in editor.js (built from web/ by esbuild), with their licences.\n\n" + parts.join("\n" + "-".repeat(72) + "\n\n"));
