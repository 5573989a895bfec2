"""The `printed:` ledger of a rule file: the figures its sources print, each read and checked
here with a positioned error (and "did you mean") like every other key, so that a figure set
beside the exact analysis names a source, a variable, a label or a bet the file has.

    printed:
      - source: 2              # its place in `sources:`, from 1, as `show` numbers them
        page: "90"
        words: so the hazard of the Caster is to that of the Setter 244, 251
        figure: 244 to 251     # a ratio, a fraction (244/495) or a percentage (49.29%)
        of: win                # win, lose, push, edge, a label, or `edge` with `bet: NAME`
        given: {main: 7}       # conditioned on a variable's value (or values: [6, 8])

A ratio "A to B" is the figure's chance against its complement (the caster's hazard to the
setter's): A/(A+B). The figures are computed in `render.printed`; here is only the reading.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ..diagnostics import did_you_mean
from ..model import Printed
from ..parse import keys as K
from ..parse.reader import checked_keys, checked_text
from ..parse.yaml_nodes import YMap, YScalar, YSeq

RESULTS = ("win", "lose", "push", "edge")  # what a figure may be of, besides a label or a bet
MAX_PRINTED = 200  # figures in a ledger, at most
_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_RATIO = re.compile(rf"^\s*({_NUMBER})\s*(?:to|:)\s*({_NUMBER})\s*$")
_FRACTION = re.compile(r"^\s*(\d[\d,]*)\s*/\s*(\d[\d,]*)\s*$")
_PERCENT = re.compile(r"^\s*(\d+(?:\.(\d+))?)\s*%\s*$")
# digits in a figure, at most, as in a number the reader takes (parse.yaml_nodes): past Python's
# 4,300 digits Fraction() refuses a figure with a ValueError, and no source prints one so large
MAX_FIGURE_DIGITS = 64


def _too_long(text: str) -> bool:
    return sum(c.isdigit() for c in text) > MAX_FIGURE_DIGITS


def figure_value(text: str):
    """What a printed figure says, as ("ratio", (A, B)), ("fraction", F) or ("percent", (F,
    places)); None when it is none of these, or holds more than MAX_FIGURE_DIGITS digits."""
    if _too_long(text):
        return None
    m = _RATIO.match(text)
    if m:
        a, b = (Fraction(x.replace(",", "")) for x in m.groups())
        return ("ratio", (a, b)) if a >= 0 and b >= 0 and a + b > 0 else None
    m = _FRACTION.match(text)
    if m:
        a, b = (int(x.replace(",", "")) for x in m.groups())
        return ("fraction", Fraction(a, b)) if b and a <= b else None
    m = _PERCENT.match(text)
    if m:
        share = Fraction(m.group(1)) / 100
        return ("percent", (share, len(m.group(2) or ""))) if share <= 1 else None
    return None


def read_printed(root: YMap, diags, variables, labels, own: str | None = None, options=None) -> tuple:
    """The `printed:` entries of a merged rule file (Printed), each problem added to `diags`
    with its position. `variables` and `labels` are those the reading kept (name -> …); `own`,
    the file's name: a ledger written in the file it extends is that file's, not inherited,
    since its figures are of that game (petty.yaml is not Arbuthnot's Hazard)."""
    node = root.get("printed") if isinstance(root, YMap) else None
    if node is None or (own is not None and node.position is not None and node.position.file != own):
        return ()
    if not isinstance(node, YSeq):
        diags.error("printed must be a list of {source, page, words, figure, of, bet, given, note}",
                    node.position, code="not-a-list")
        return ()
    if len(node.items) > MAX_PRINTED:
        diags.error(f"printed lists {len(node.items)} figures; at most {MAX_PRINTED}", node.position,
                    code="too-many")
        return ()
    sources = root.get("sources")
    count = len(sources.items) if isinstance(sources, YSeq) else 0
    bets = root.get("bets")
    bet_names = list(bets.entries) if isinstance(bets, YMap) else []
    out = []
    for item in node.items:
        entry = _entry(item, diags, count, variables or {}, labels or {}, bet_names, options or {})
        if entry is not None:
            out.append(entry)
    return tuple(out)


def _entry(item, diags, count, variables, labels, bet_names, options=None):
    if not isinstance(item, YMap):
        diags.error("a printed figure must be a mapping (key: value)", getattr(item, "position", None),
                    code="not-a-mapping")
        return None
    item = checked_keys(item, K.PRINTED, "a printed figure", diags)
    ok = all(key in item.entries for key in K.PRINTED.required)
    texts = {}
    for key in ("page", "words", "figure", "of", "bet", "note"):
        value = item.get(key)
        if value is None:
            continue
        text = checked_text(value, f"printed: {key}", diags)
        if text is None:
            ok = False
        else:
            texts[key] = text
    source = item.get("source")
    if source is not None:
        if not (isinstance(source, YScalar) and isinstance(source.value, int)
                and not isinstance(source.value, bool)):
            diags.error("printed: source must be a whole number, the source's place in `sources:` (from 1)",
                        source.position, code="not-whole")
            ok = False
        elif not 1 <= source.value <= count:
            diags.error(f"printed: source {source.value}: the file lists "
                        f"{count} source{'s' * (count != 1)}" if count else
                        f"printed: source {source.value}: the file lists no `sources:`",
                        source.position, "a source is named by its place in `sources:`, from 1", code="unknown-source")
            ok = False
    figure = item.get("figure")
    if "figure" in texts and _too_long(texts["figure"]):
        diags.error(f"printed: figure {texts['figure'][:12] + '…'!r} has more than {MAX_FIGURE_DIGITS} digits; "
                    f"no source prints one so large", figure.position, code="bad-figure")
        ok = False
    elif "figure" in texts and figure_value(texts["figure"]) is None:
        diags.error(f"printed: figure {texts['figure']!r} is not a ratio, a fraction or a percentage",
                    figure.position, 'write it as printed: "244 to 251", "244/495" or "49.29%"',
                    code="bad-figure")
        ok = False
    of, bet = texts.get("of"), texts.get("bet")
    if bet is not None:
        if bet not in bet_names:
            diags.error(f"printed: there is no bet {bet!r}{did_you_mean(bet, bet_names)}", item.get("bet").position,
                        f"bets: {', '.join(bet_names) or 'none'}", code="unknown-bet")
            ok = False
        if of is not None and of != "edge":
            diags.error(f"printed: a bet's figure is its edge: write `of: edge` (not {of!r})",
                        item.get("of").position, code="bad-of")
            ok = False
    elif of is not None and of not in RESULTS and of not in labels:
        known = [*RESULTS, *labels]
        diags.error(f"printed: of {of!r} is not a figure the analysis gives{did_you_mean(of, known)}",
                    item.get("of").position, f"of: {', '.join(known)}", code="bad-of")
        ok = False
    given = _given(item.get("given"), diags, variables)
    if given is None:
        ok = False
    elif given and bet is not None:
        diags.error("printed: a bet's edge is per bet made, not given a variable's value", item.get("given").position,
                    code="bad-given")
        ok = False
    chosen = _options(item.get("options"), diags, options or {})
    if chosen is None:
        ok = False
    if not ok:
        return None
    return Printed(source=source.value, figure=texts["figure"], of=of, position=item.position,
                   page=texts.get("page"), words=" ".join(texts["words"].split()) if "words" in texts else None,
                   bet=bet, given=given, note=texts.get("note"), options=chosen)


def _options(node, diags, options):
    """((option, value), …) of `options: {payoff: for}`: the rules the figure is of; None on an error."""
    if node is None:
        return ()
    if not isinstance(node, YMap):
        diags.error("printed: options must be a mapping of options to values: `options: {payoff: for}`",
                    node.position, code="not-a-mapping")
        return None
    out = []
    for name, (key_node, value) in node.entries.items():
        option = options.get(name)
        if option is None:
            diags.error(f"printed: options: there is no option {name!r}{did_you_mean(name, options)}",
                        key_node.position, f"options: {', '.join(options) or 'none'}", code="unknown-option")
            return None
        values = {str(v): v for v in option.values}
        said = value.text.strip() if isinstance(value, YScalar) and value.value is not None else None
        if said not in values:
            diags.error(f"printed: options: {name} has no value {said!r}{did_you_mean(said or '', values)}",
                        getattr(value, "position", key_node.position), f"values: {', '.join(values)}",
                        code="unknown-value")
            return None
        out.append((name, values[said]))
    return tuple(out)


def _given(node, diags, variables):
    """((variable, (value, …)), …) of `given: {main: 7}` or `{main: [6, 8]}`; None on an error."""
    if node is None:
        return ()
    if not isinstance(node, YMap):
        diags.error("printed: given must be a mapping of variables to values: `given: {main: 7}`", node.position,
                    code="not-a-mapping")
        return None
    out = []
    for name, (key_node, value) in node.entries.items():
        if name not in variables:
            diags.error(f"printed: given: there is no variable {name!r}{did_you_mean(name, variables)}",
                        key_node.position, f"variables: {', '.join(variables) or 'none'}", code="unknown-variable")
            return None
        items = value.items if isinstance(value, YSeq) else [value]
        values = []
        for v in items:
            if not (isinstance(v, YScalar) and isinstance(v.value, int) and not isinstance(v.value, bool)):
                diags.error(f"printed: given: {name} takes a whole number or a list of them",
                            getattr(v, "position", key_node.position), code="not-whole")
                return None
            if not variables[name].allows(v.value):
                diags.error(f"printed: given: {name} = {v.value} is outside its range", v.position, code="out-of-range")
                return None
            values.append(v.value)
        if not values:
            diags.error(f"printed: given: {name} names no value", key_node.position, code="not-whole")
            return None
        out.append((name, tuple(values)))
    if len(out) > 1:
        diags.error("printed: given names one variable (the analysis is by one variable at a time)", node.position,
                    code="bad-given")
        return None
    return tuple(out)
