"""The VS Code extension in editors/vscode, built as CI builds it: `npm ci` and `npm run package`
(the ecosystem's own packager, @vscode/vsce) in a copy of the folder, so the tree stays clean;
the .vsix it makes holds the client, its vscode-languageclient, the schema, the grammars; the
client loads from inside the unpacked .vsix; and the highlighting grammar's keywords are the
expression language's reserved words (the parser's KEYWORDS), its scopes what VS Code themes
colour, its patterns colour a rule as grammar/hazard.lark reads it.

Issue 35, point 3. Without npm, or with a node older than 20, the build tests skip, saying why; the grammar's own
tests run anyway."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from hazard_dsl.language.schema import SCHEMA_FILE
from hazard_dsl.parse.lalr import KEYWORDS

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "editors" / "vscode"
GRAMMAR = EXTENSION / "syntaxes" / "hazard.tmLanguage.json"
NPM = shutil.which("npm")
NODE = shutil.which("node")
# `npm ci` from npm's cache takes seconds; from the registry, under a minute. A registry that
# does not answer fails the test at these bounds instead of hanging CI.
INSTALL_TIMEOUT = 240
PACKAGE_TIMEOUT = 120



def _node_major() -> int:
    try:
        done = subprocess.run([NODE, "--version"], capture_output=True, text=True, timeout=30)
        return int(done.stdout.strip().lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return 0


# @vscode/vsce 3 (package-lock.json) runs on Node.js 20 or later
WHY_NOT = ("npm and node are not installed: the VS Code extension is built with them" if NPM is None or NODE is None
           else None if _node_major() >= 20 else "node is older than 20: @vscode/vsce, which packages the extension, "
           "needs Node.js 20 or later")
needs_npm = pytest.mark.skipif(WHY_NOT is not None, reason=str(WHY_NOT))


def _run(command: list, cwd: Path, timeout: int, env: dict | None = None) -> subprocess.CompletedProcess:
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                              env={**os.environ, **(env or {})})
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"{' '.join(command)} took over {timeout} s (the npm registry unreachable?): {error.stdout}")
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def vsix(tmp_path_factory) -> Path:
    """The .vsix built from a copy of editors/vscode (what is committed: no node_modules)."""
    if WHY_NOT is not None:
        pytest.skip(WHY_NOT)
    work = tmp_path_factory.mktemp("vscode") / "vscode"
    shutil.copytree(EXTENSION, work, ignore=shutil.ignore_patterns("node_modules", "*.vsix", "rule-file.schema.json"))
    _run([NPM, "ci", "--prefer-offline", "--no-audit", "--no-fund"], work, INSTALL_TIMEOUT)
    done = _run([NPM, "run", "package"], work, PACKAGE_TIMEOUT, env={"HAZARD_DSL_SCHEMA": str(SCHEMA_FILE)})
    version = json.loads((EXTENSION / "package.json").read_text())["version"]
    built = work / f"hazard-dsl-{version}.vsix"
    assert built.is_file(), done.stdout
    return built


@needs_npm
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_vsix_holds_the_client_its_library_the_schema_and_the_grammars(vsix):
    with zipfile.ZipFile(vsix) as z:
        names = set(z.namelist())
        for needed in ("extension/package.json", "extension/extension.js", "extension/rule-file.schema.json",
                       "extension/language-configuration.json", "extension/syntaxes/hazard.tmLanguage.json",
                       "extension/syntaxes/hazard-rules.tmLanguage.json",
                       "extension/node_modules/vscode-languageclient/node.js",
                       "extension/node_modules/vscode-languageclient/package.json",
                       "extension/node_modules/vscode-jsonrpc/package.json"):
            assert needed in names, needed
        # the packager (a dev dependency) and the build script stay out
        assert not any(n.startswith("extension/node_modules/@vscode/vsce/") for n in names)
        assert not any(n.startswith("extension/scripts/") for n in names)
        # the schema shipped is the one this hazard-dsl writes
        assert json.loads(z.read("extension/rule-file.schema.json")) == json.loads(SCHEMA_FILE.read_text())
        manifest = json.loads(z.read("extension/package.json"))
    assert manifest["main"] == "./extension.js"
    assert {"onLanguage:hazard-rules", "onLanguage:yaml"} <= set(manifest["activationEvents"])
    contributes = manifest["contributes"]
    assert contributes["languages"][0]["id"] == "hazard-rules"
    assert set(contributes["languages"][0]["extensions"]) == {".hazard.yaml", ".hazard.yml"}
    assert contributes["yamlValidation"] == [{"fileMatch": ["*.hazard.yaml", "*.hazard.yml"],
                                              "url": "./rule-file.schema.json"}]
    settings = contributes["configuration"]["properties"]
    assert settings["hazard-dsl.command"]["default"] == "hazard-dsl"
    assert settings["hazard-dsl.files"]["type"] == "array"


@needs_npm
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_client_loads_from_the_unpacked_vsix(vsix, tmp_path):
    """extension.js and the vscode-languageclient shipped beside it load as VS Code loads them
    (the `vscode` module, which only VS Code provides, stubbed): a missing or broken dependency in
    the .vsix fails here, not in the author's editor."""
    with zipfile.ZipFile(vsix) as z:
        z.extractall(tmp_path)
    probe = tmp_path / "probe.js"
    probe.write_text(
        'const Module = require("module"); const load = Module._load;\n'
        'const stub = new Proxy(function () {}, {get: (t, k) => (k === "__esModule" ? false : stub),\n'
        '  construct: () => stub, apply: () => stub});\n'
        'Module._load = function (request, ...rest) {\n'
        '  return request === "vscode" ? stub : load.call(this, request, ...rest); };\n'
        'const ext = require(process.argv[2]);\n'
        'const lc = require(require.resolve("vscode-languageclient/node",'
        ' {paths: [require("path").dirname(process.argv[2])]}));\n'
        'console.log(typeof ext.activate, typeof ext.deactivate, typeof lc.LanguageClient);\n')
    done = _run([NODE, str(probe), str(tmp_path / "extension" / "extension.js")], tmp_path, 60)
    assert done.stdout.split() == ["function", "function", "function"]


def _grammar() -> dict:
    return json.loads(GRAMMAR.read_text())


def _patterns(node):
    """Every pattern of a grammar (its rules and their nested patterns), depth first."""
    if isinstance(node, dict):
        if any(k in node for k in ("match", "begin", "name", "include")):
            yield node
        for key, value in node.items():
            if key not in ("captures", "beginCaptures", "endCaptures"):
                yield from _patterns(value)
    elif isinstance(node, list):
        for item in node:
            yield from _patterns(item)


def test_the_grammar_keywords_are_the_parsers_reserved_words():
    """Every reserved word of the expression language is coloured as a keyword, and nothing else
    is: the words in the grammar's `keywords` rules equal the parser's KEYWORDS."""
    words = set()
    for rule in _grammar()["repository"]["keywords"]["patterns"]:
        found = re.fullmatch(r"\\b\(\?:([a-z|]+)\)\\b", rule["match"])
        assert found, rule["match"]
        words |= set(found.group(1).split("|"))
    assert words == set(KEYWORDS)


def test_the_grammar_reads_and_its_scopes_are_ones_themes_colour():
    grammar = _grammar()
    assert grammar["scopeName"] == "hazard.expression.injection"
    assert grammar["injectionSelector"].startswith("L:source.yaml.hazard")
    # its scopes start with the standard TextMate roots, so every theme colours them
    roots = ("keyword.", "constant.", "entity.name.", "variable.", "support.function.", "string.",
             "comment.", "punctuation.", "meta.")
    for rule in _patterns([grammar["patterns"], grammar["repository"]]):
        for key in ("match", "begin", "end"):
            if key in rule:
                re.compile(rule[key])  # (Oniguruma reads these too: no Oniguruma-only syntax is used)
        names = [rule.get("name")] + [c["name"] for k in ("captures", "beginCaptures", "endCaptures")
                                      for c in rule.get(k, {}).values()]
        for name in filter(None, names):
            assert name.startswith(roots), name
        if "include" in rule and rule["include"].startswith("#"):
            assert rule["include"][1:] in grammar["repository"], rule["include"]
    manifest = json.loads((EXTENSION / "package.json").read_text())
    rule_files = json.loads((EXTENSION / "syntaxes" / "hazard-rules.tmLanguage.json").read_text())
    assert rule_files["patterns"] == [{"include": "source.yaml"}]
    assert {g["scopeName"]: g.get("injectTo") for g in manifest["contributes"]["grammars"]} == {
        "source.yaml.hazard": None, "hazard.expression.injection": ["source.yaml.hazard"]}


def _scopes(line: str) -> list[tuple[str, str]]:
    """(text, scope) of a rule's line as the grammar colours it: the entry rule's begin, then the
    expression's patterns tried in order at each place, as a TextMate engine tries them (the
    first that matches earliest wins)."""
    repo = _grammar()["repository"]
    entry = repo["expression-entry"]
    start = re.match(entry["begin"], line)
    assert start, line
    out = [(start.group(4), entry["beginCaptures"]["4"]["name"])]

    def flat(rule):
        if "include" in rule:
            yield from flat(repo[rule["include"][1:]])
        elif "patterns" in rule and "match" not in rule:
            for r in rule["patterns"]:
                yield from flat(r)
        else:
            yield rule

    rules = list(flat({"include": "#expression"}))
    at = start.end()
    while at < len(line):
        best = None
        for rule in rules:
            found = re.compile(rule["match"]).search(line, at)
            if found and found.end() > found.start() and (best is None or found.start() < best[0].start()):
                best = (found, rule)
        if best is None:
            break
        found, rule = best
        if "captures" in rule:
            out += [(found.group(int(i)), c["name"]) for i, c in rule["captures"].items() if found.group(int(i))]
        else:
            out.append((found.group(), rule["name"]))
        at = found.end()
    return out


def test_the_grammar_colours_a_rule_as_the_language_reads_it():
    assert _scopes("      do: set main = total; goto chance_throw") == [
        ("do", "entity.name.tag.yaml"), ("set", "keyword.control.action.hazard"),
        ("main", "variable.other.hazard"), ("=", "keyword.operator.assignment.hazard"),
        ("total", "variable.other.hazard"), (";", "punctuation.separator.action.hazard"),
        ("goto", "keyword.control.action.hazard"), ("chance_throw", "entity.name.section.phase.hazard")]
    assert _scopes("    - when: total == main or (main in {6, 8} and weight(12) > 0)") == [
        ("when", "entity.name.tag.yaml"), ("total", "variable.other.hazard"),
        ("==", "keyword.operator.comparison.hazard"), ("main", "variable.other.hazard"),
        ("or", "keyword.operator.word.hazard"), ("(", "punctuation.section.parens.hazard"),
        ("main", "variable.other.hazard"), ("in", "keyword.operator.word.hazard"),
        ("{", "punctuation.section.braces.hazard"), ("6", "constant.numeric.integer.hazard"),
        (",", "punctuation.separator.comma.hazard"), ("8", "constant.numeric.integer.hazard"),
        ("}", "punctuation.section.braces.hazard"), ("and", "keyword.operator.word.hazard"),
        ("weight", "support.function.builtin.hazard"), ("(", "punctuation.section.parens.hazard"),
        ("12", "constant.numeric.integer.hazard"), (")", "punctuation.section.parens.hazard"),
        (">", "keyword.operator.comparison.hazard"), ("0", "constant.numeric.integer.hazard"),
        (")", "punctuation.section.parens.hazard")]
    # a label after win; `win pays` has none (pays is a keyword); option.NAME
    assert _scopes("  otherwise: win nick")[1:] == [("win", "keyword.control.action.hazard"),
                                                   ("nick", "entity.name.label.hazard")]
    assert _scopes("  do: win pays 3 to 1")[1:3] == [("win", "keyword.control.action.hazard"),
                                                     ("pays", "keyword.other.hazard")]
    assert _scopes('  when: option.crabs == "low"')[1:5] == [
        ("option", "keyword.other.option.hazard"), (".", "punctuation.accessor.hazard"),
        ("crabs", "variable.parameter.option.hazard"), ("==", "keyword.operator.comparison.hazard")]
    # a block scalar is left to YAML (and to the server's semantic tokens)
    assert re.match(_grammar()["repository"]["expression-entry"]["begin"], "  do: >-") is None


@needs_npm
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_vscode_s_own_engine_colours_a_built_in_ruleset(vsix, tmp_path):
    """Oniguruma and vscode-textmate (VS Code's engine; devDependencies, scripts/tokenize.js) run
    the extension's grammars over the TextMate YAML grammar, on craps: every grammar's regex
    compiles in Oniguruma, each `goto`'s phase is coloured as a phase, and no key other than an
    expression's gets the expression language's colours (nor a reserved word the colours of a name)."""
    from hazard_dsl.parse.files import builtin_file

    source = Path(builtin_file("craps"))
    lines = source.read_text(encoding="utf-8").split("\n")
    done = _run([NODE, "scripts/tokenize.js", str(source)], vsix.parent, 60)
    coloured = json.loads(done.stdout)
    assert len(coloured) == len(lines)
    expression = re.compile(r"^\s*(?:-\s+)?(when|made|do|otherwise|pays|losses_in_a_row):\s")
    gotos = labels = 0
    for line, tokens in zip(lines, coloured):
        ours = [text for text, scope in tokens if scope.endswith(".hazard")]
        if not expression.match(line) or line.rstrip().endswith(("|", ">", "|-", ">-")):
            assert ours == [], line
            continue
        for phase in re.findall(r"\bgoto\s+(\w+)", line.split(" #")[0]):
            assert [phase, "entity.name.section.phase.hazard"] in tokens, line
            gotos += 1
        for label in re.findall(r"\b(?:win|lose|push)\s+(\w+)", line.split(" #")[0]):
            if label not in KEYWORDS:
                assert [label, "entity.name.label.hazard"] in tokens, line
                labels += 1
        assert [text for text, scope in tokens if scope == "variable.other.hazard" and text in KEYWORDS] == [], line
    # craps.yaml: `goto point` after the come-out; natural, craps, point_made, seven_out, bar
    assert gotos == 1 and labels >= 5
