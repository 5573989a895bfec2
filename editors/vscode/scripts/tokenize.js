// Colours a rule file as VS Code does: vscode-textmate with Oniguruma (VS Code's own engine) runs
// the extension's grammars over a YAML grammar (tm-grammars' yaml, the TextMate YAML grammar).
// Prints, as JSON, each line's tokens as [text, innermost scope]. Used by
// tests/test_vscode_extension.py; not shipped in the .vsix (a dev tool: its packages are
// devDependencies).    node scripts/tokenize.js FILE
"use strict";
const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const here = path.resolve(__dirname, "..");
const manifest = JSON.parse(fs.readFileSync(path.join(here, "package.json"), "utf8"));
const files = { "source.yaml": require.resolve("tm-grammars/grammars/yaml.json") };
const injections = {};
for (const g of manifest.contributes.grammars) {
  files[g.scopeName] = path.join(here, g.path);
  for (const host of g.injectTo || []) (injections[host] = injections[host] || []).push(g.scopeName);
}
const wasm = fs.readFileSync(path.join(path.dirname(require.resolve("vscode-oniguruma")), "onig.wasm")).buffer;
const onigLib = oniguruma.loadWASM(wasm).then(() => ({
  createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
  createOnigString: (text) => new oniguruma.OnigString(text),
}));
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scope) =>
    files[scope] ? vsctm.parseRawGrammar(fs.readFileSync(files[scope], "utf8"), files[scope]) : null,
  getInjections: (scope) => injections[scope] || [],
});
const language = manifest.contributes.grammars.find((g) => g.language === "hazard-rules").scopeName;
registry.loadGrammar(language).then((grammar) => {
  let stack = vsctm.INITIAL;
  const out = [];
  for (const line of fs.readFileSync(process.argv[2], "utf8").split("\n")) {
    const result = grammar.tokenizeLine(line, stack);
    out.push(result.tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes[t.scopes.length - 1]])
      .filter(([text]) => text.trim()));
    stack = result.ruleStack;
  }
  console.log(JSON.stringify(out));
}).catch((error) => { console.error(error); process.exit(1); });
