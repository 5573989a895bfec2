// Puts the rule file schema beside package.json before packaging, so that the .vsix ships the
// same schema as the hazard-dsl it was built with (package.json's yamlValidation points at it).
// From: $HAZARD_DSL_SCHEMA (a path), else the source tree's copy (../../hazard_dsl/language/),
// else what `hazard-dsl schema` prints (the installed package's).
"use strict";
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

const here = path.resolve(__dirname, "..");
const target = path.join(here, "rule-file.schema.json");
const inTree = path.join(here, "..", "..", "hazard_dsl", "language", "rule-file.schema.json");
const given = process.env.HAZARD_DSL_SCHEMA;

let text;
let from;
if (given) {
  text = fs.readFileSync(given, "utf8");
  from = given;
} else if (fs.existsSync(inTree)) {
  text = fs.readFileSync(inTree, "utf8");
  from = inTree;
} else {
  try {
    text = execFileSync("hazard-dsl", ["schema"], { encoding: "utf8", timeout: 60000 });
  } catch (error) {
    console.error("copy-schema: no schema found: set HAZARD_DSL_SCHEMA to rule-file.schema.json, " +
      "build inside the hazard-dsl source tree, or put hazard-dsl on PATH (" + error.message + ")");
    process.exit(1);
  }
  from = "hazard-dsl schema";
}
JSON.parse(text); // a broken schema stops the build here, not in the author's editor
fs.writeFileSync(target, text);
console.log("copy-schema: " + path.basename(target) + " from " + from);
