"""The sections of a rule file → a `Ruleset`: the YAML schema, and parsing every expression.

`read_sections(path)` loads a file and the chain of files it extends, merged (`parse.chain`),
checks the shape of every key of every section and parses every condition and action; what it
read and every problem found are a `Read`. The names and types are checked next
(`check.reading.read_ruleset`, the whole reading of a rule file, which raises them together).

One job, the sections, in one module of about 1,000 lines: each section's reader is short and
they share the `_Reader`'s helpers and the order in which `read_sections` calls them.
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from fractions import Fraction

from .templates import template_names
from ..diagnostics import Diagnostics, RulesetError, Suggestion, did_you_mean, nearest
from ..records import record
from ..model import (AGAINST, BET_FACTS, COMMISSION_PAID, DICE_FACTS, FACE_WORDS, FIRST_CASTER, ROLES, WHEN_SHORT, REFUSE, Bet, Cocked, Commission, DiceSpec, Fee,
                     Label, Loading, Option, Passing, Phase, Rule, Ruleset, Source, Table, Variable, Words,
                     Coin, Sum, MAX_DICE, MAX_SIDES, MAX_THROWS, NUMBER_WORDS, THROW_FUNCTIONS, TWO_DICE, DiceShape, is_die_fact, throw_facts)
from . import syntax as ex
from .expressions import parse_actions, parse_expression, parse_payout
# the keys of each mapping of a rule file are in one table, which the JSON Schema is written from too
from . import keys as K
from .keys import KEYWORDS, MAX_NARRATION_CHARS, MAX_WHOLE
from . import chain as chain_
from .files import display as _display
from .numbers import MAX_DIGITS, MAX_WHOLE_DIGITS, exact_amount, spells_whole, whole_number
from .yaml_nodes import YMap, YScalar, YSeq



# --------------------------------------------------------------------------- small schema helpers


class _Reader:
    def __init__(self) -> None:
        self.diags = Diagnostics()
        self.dead_rules: set = set()  # rules after an `otherwise`: errors that leave the game as it is

    def errors(self) -> int:
        return sum(d.is_error for d in self.diags.items)

    def mapping(self, node, what: str) -> YMap | None:
        if isinstance(node, YMap):
            return node
        hint = None
        if isinstance(node, YScalar) and isinstance(node.value, str):
            # `otherwise throw again`, `variables main 0..12`: a key whose colon is missing
            first, _, rest = node.value.strip().partition(" ")
            if first.isidentifier() and rest:
                hint = f"a key is followed by a colon: `{first}: {rest.strip()}`"
        self.diags.error(f"{what} must be a mapping (key: value)", node.position if node else None, hint,
                         code="not-a-mapping")
        return None

    def keys(self, node: YMap, table: K.Keys, what: str) -> YMap:
        """Report each key of `node` that `table` does not allow (with "did you mean") and each
        key it requires that `node` lacks; return `node` with each misspelt key read as the key
        it stands for (`_misspelt_read_as`), so that what is under it is checked in this run."""
        allowed, required = table.allowed, table.required
        read_as = _misspelt_read_as(node, table)
        for key, (key_node, _) in node.entries.items():
            if key not in allowed:
                from difflib import get_close_matches  # (only for a key that is wrong)

                close = get_close_matches(key, allowed, n=1)
                hint = f"did you mean {close[0]!r}?" if close else f"{what} takes: {', '.join(allowed)}"
                said = K.source_word(key)
                if said:  # `fader:` under words: is Barker's setter, not a misspelt `faces:`
                    hint = f"{said}; {what} takes: {', '.join(allowed)}"
                fix = key_node.replaced_by(close[0]) if close and not said else None
                self.diags.error(f"unknown key {key!r} in {what}", key_node.position, hint,
                                 code="unknown-key", suggestion=fix)
        for key in required:
            if key not in read_as.entries:
                self.diags.error(f"{what} needs {key!r}", node.position, code="missing-key")
        return read_as

    def text(self, node, what: str, limit: int = 10_000) -> str | None:
        if node is None:
            return None
        if isinstance(node, YScalar) and node.value is not None and not isinstance(node.value, (list, dict)):
            if len(node.text) > limit:
                self.diags.error(f"{what} is longer than {limit} characters", node.position, code="too-long")
                return None
            return node.text
        self.diags.error(f"{what} must be text", node.position, code="not-text")
        return None

    def integer(self, node, what: str) -> int | None:
        if isinstance(node, YScalar) and isinstance(node.value, int) and not isinstance(node.value, bool):
            if abs(node.value) > MAX_WHOLE:
                self.diags.error(f"{what} is too large", node.position, code="too-large")
                return None
            return node.value
        self.diags.error(f"{what} must be a whole number", node.position if node else None, code="not-whole")
        return None

    def boolean(self, node, what: str) -> bool | None:
        if isinstance(node, YScalar) and isinstance(node.value, bool):
            return node.value
        self.diags.error(f"{what} must be true or false", node.position if node else None, code="not-boolean")
        return None

    def word(self, node, what: str) -> str | None:
        """A name usable in expressions."""
        name = self.text(node, what)
        if name is None:
            return None
        if not name.isidentifier() or not name.isascii():
            self.diags.error(f"{what} {name!r} is not a valid name (letters, digits, _)", node.position,
                             code="invalid-name")
            return None
        if name in KEYWORDS:
            self.diags.error(f"{what} {name!r} is a reserved word", node.position, code="reserved-word")
            return None
        return name

    def narration(self, node, what: str, allowed_names) -> str | None:
        text = self.text(node, what, MAX_NARRATION_CHARS)
        if text is None:
            return None
        for name in template_names(text):
            if name not in allowed_names:
                said = K.source_word(name)
                self.diags.error(f"{what} uses {{{name}}}, which is not known here"
                                 f"{'' if said else did_you_mean(name, allowed_names)}", node.position,
                                 (f"{said}, who is not named in a narration; " if said else "")
                                 + f"known: {', '.join(sorted(allowed_names))}", code="unknown-placeholder",
                                 suggestion=None if said else _placeholder_mended(node, text, name, allowed_names))
        return text



def _placeholder_mended(node, text: str, name: str, allowed_names) -> Suggestion | None:
    """The known name close to a narration's unknown `{name}`, put in place of the name where it
    is first written (its braces and any `:word` kept), where the text shows it as written."""
    close = nearest(name, allowed_names)
    at = next((k + 1 for k in range(len(text)) if text.startswith("{" + name, k)
               and text[k + 1 + len(name):k + 2 + len(name)] in ("}", ":")), None)
    if close is None or at is None or not isinstance(node, YScalar):
        return None
    start, end = node.position_at(at), node.position_at(at + len(name))
    if start.line != end.line or end.column - start.column != len(name):
        return None  # an escape or a fold inside the name: the place is not the written word's
    return Suggestion(close, start, end)


@record
class Read:
    """What reading a rule file found, for the checks that follow (`check.reading`): every
    problem so far (`diagnostics`), the ruleset as read (`build()`, a new one each call; partial
    where a section had errors), the merged nodes (`root`), the sections with errors of their own
    (`failed`), whether any phase was read, what each declaring section kept, the rules after an
    `otherwise` (`dead_rules`, errors that leave the game as it is), the layout mends read past
    (`edits`, and where each mended error stands: `mended_at`) and the file's name in messages."""

    diagnostics: Diagnostics
    build: object  # () -> Ruleset
    root: YMap
    failed: frozenset
    has_phases: bool
    variables: dict
    options: dict
    labels: dict
    dead_rules: frozenset
    edits: list
    mended_at: frozenset
    own: str


# --------------------------------------------------------------------------- the sections


def read_sections(path: str | Path, files: list | None = None, text: str | None = None,
                  named: str | None = None, within: Path | None = None) -> Read:
    """Load and merge a rule file (`chain`), check the shape of every key and parse every
    condition and action: what was read, with every problem found (`Read`). Raises RulesetError
    where the file cannot be read on at all (its YAML, its `extends:`). The names and types are
    checked next (`check.reading.read_ruleset`, which reads with this).
    `named` with `text`: a rule file held in a string, not a file; `within`: a folder `extends:`
    may not leave (`chain.load_chain`)."""
    if named is not None and text is None:
        raise TypeError("a ruleset named as text needs its text")
    path = Path(path)
    diags = Diagnostics()
    files = [] if files is None else files
    mends: dict = {}  # the layout errors read past in the file's own text (`_mended`)
    layers = chain_.load_chain(path, diags, files, text, named, within, mends)
    root = chain_.merge(layers)
    r = _Reader()
    root = r.keys(root, K.RULESET, "a ruleset")

    name = r.text(root.get("name"), "name", 200) if root.get("name") else None
    year = None
    node = root.get("year")
    if node is not None and not (isinstance(node, YScalar) and node.value is None):  # `year: null`: undated
        # (a year of `yes` or `no` is its text, not Python's True: fuzz42 Y3)
        year = node.value if isinstance(node, YScalar) and isinstance(node.value, (int, str)) and \
            not isinstance(node.value, bool) else r.text(node, "year")
    description = r.text(root.get("description"), "description")
    failed: set = set()  # the sections that had errors: what the names check can trust without them

    def counted(section: str, read):
        before = len(r.diags.items)
        value = read()
        # an unknown key leaves the rest of its section read as written: only other errors make
        # the section one the names check cannot trust
        if any(d.is_error and d.code != "unknown-key" for d in r.diags.items[before:]):
            failed.add(section)
        return value

    sources = _sources(r, root.get("sources"))
    notes = _notes(r, root.get("notes"))
    dice = counted("dice", lambda: _dice(r, root.get("dice")))
    variables = counted("variables", lambda: _variables(r, root.get("variables")))
    options = counted("options", lambda: _options(r, root.get("options")))
    labels = counted("labels", lambda: _labels(r, root.get("labels"), variables))
    words = counted("words", lambda: _words(r, root.get("words"), dice.shape if dice is not None else TWO_DICE))
    phases = counted("phases", lambda: _phases(r, root.get("phases"), variables))
    cocked = counted("cocked", lambda: _cocked(r, root.get("cocked"), variables))
    passing = counted("passing", lambda: _passing(r, root.get("passing")))
    table = counted("money", lambda: _money(r, root.get("money")))
    bets = counted("bets", lambda: _bets(r, root.get("bets"), variables))
    fees = counted("fees", lambda: _fees(r, root.get("fees")))
    start = None
    if root.get("start") is not None:
        start = r.word(root.get("start"), "start")
        if start is not None and phases is not None and start not in phases:
            r.diags.error(f"start: there is no phase {start!r}", root.get("start").position,
                          f"phases: {', '.join(phases)}", code="unknown-phase")
    elif phases:
        start = next(iter(phases))

    extends = layers[-1].get("extends")
    built_on, inherited, inherited_from = chain_.built_on(layers, sources)
    if inherited:
        sources = []
    diags.extend(r.diags.items)

    def build() -> Ruleset:
        return Ruleset(
            name=name or "",
            file=named if named is not None else _display(path),
            year=year,
            description=description,
            sources=tuple(sources),
            notes=tuple(notes),
            extends=extends.text if isinstance(extends, YScalar) and extends.value else None,
            variables=MappingProxyType(variables),
            options=MappingProxyType(options),
            labels=MappingProxyType(labels),
            phases=MappingProxyType(phases or {}),
            start=start or "",
            words=words,
            passing=passing,
            bets=MappingProxyType(bets),
            fees=MappingProxyType(fees),
            money_unit=table.unit,
            table=table,
            rules_digest=chain_.rules_digest(files),
            dice=dice,
            cocked=cocked,
            built_on=built_on,
            inherited_sources=tuple(inherited),
            inherited_from=inherited_from,
        )


    own = named if named is not None else _display(path)
    return Read(diags, build, root, frozenset(failed), bool(phases), variables, options, labels,
                frozenset(r.dead_rules), mends.get("edits") or [], frozenset(mends.get("at", ())), own)



def _sources(r: _Reader, node) -> list[Source]:
    if node is None:
        return []
    if not isinstance(node, YSeq):
        r.diags.error("sources must be a list of {title, author, year, page, url, note}", node.position)
        return []
    out = []
    for item in node.items:
        m = r.mapping(item, "a source")
        if m is None:
            continue
        m = r.keys(m, K.SOURCE, "a source")
        fields = {k: r.text(m.get(k), k) for k in ("title", "author", "page", "url", "note") if m.get(k) is not None}
        year = m.get("year")
        year = (year.text if isinstance(year.value, bool) else year.value) if isinstance(year, YScalar) else None
        out.append(Source(year=year, **fields) if "title" in fields
                   else Source(title=""))
    return out


def _notes(r: _Reader, node) -> list[str]:
    if node is None:
        return []
    if isinstance(node, YSeq):
        return [t for t in (r.text(item, "a note") for item in node.items) if t is not None]
    text = r.text(node, "notes")
    return [text] if text else []


def _dice(r: _Reader, node) -> DiceSpec | None:
    """The dice: two six-sided dice unless the file says otherwise; fair unless their faces'
    chances are given:

        dice: 3d6                                  (count d sides: 1d8, 4d6…)
        dice: {count: 3, sides: 6}
        dice: {count: 3, faces: [crown, anchor, heart, diamond, club, spade]}   (named faces)
        dice: {die1: [1/12, 1/12, 1/12, 1/4, 1/4, 1/4], die2: [...]}     (or `both:`, every die)
        dice: {by_option: dice, high: {both: [...]}, one_high: {die2: [...]}}
    """
    if node is None:
        return None
    if isinstance(node, YScalar) and isinstance(node.value, str) and _written_dice(node.value) is not None:
        shape = _shape(r, node, *_written_dice(node.value), None)
        return None if shape is None or shape == TWO_DICE else \
            DiceSpec(None, MappingProxyType({}), node.position, shape)
    if not isinstance(node, YMap):
        r.diags.error("dice: write how many dice and how many faces, such as `dice: 3d6`, or a mapping "
                      "(`dice: {count: 3, sides: 6}`, `dice: {die1: [...], die2: [...]}`)", node.position)
        return None
    count, sides, faces = node.get("count"), node.get("sides"), node.get("faces")
    shape = TWO_DICE
    if count is not None or sides is not None or faces is not None:
        number = r.integer(count, "dice: count (how many dice)") if count is not None else 2
        many = r.integer(sides, "dice: sides (how many faces each die has)") if sides is not None else None
        if sides is not None and many is None:
            return None
        shape = _shape(r, node, number, many, faces)
        if shape is None:
            return None
    rest = {k: v for k, v in node.entries.items() if k not in K.DICE_SIZE.allowed}
    if not rest:
        return None if shape == TWO_DICE else DiceSpec(None, MappingProxyType({}), node.position, shape)
    by_option = node.get(K.BY_OPTION)
    if by_option is None:
        rest_node = r.keys(node, K.Keys(K.DICE_SIZE.allowed + _loading_keys(shape).allowed), "dice")
        rest_node = YMap({k: v for k, v in rest_node.entries.items() if k not in K.DICE_SIZE.allowed},
                         node.position)
        return DiceSpec(None, MappingProxyType({"": _loading(r, rest_node, shape)}), node.position, shape)
    option = r.word(by_option, "dice: by_option (an option)")
    loadings = {}
    for key, (key_node, value) in rest.items():
        if key == K.BY_OPTION:
            continue
        m = r.mapping(value, f"dice: {key}")
        if m is None:
            continue
        m = r.keys(m, _loading_keys(shape), f"dice: {key}")
        loadings[key] = _loading(r, m, shape)
    return DiceSpec(option, MappingProxyType(loadings), node.position, shape)


def _written_dice(text: str) -> tuple | None:
    """`3d6` -> (3, 6); None for a text of another form."""
    count, d, sides = text.strip().lower().partition("d")
    if d and count.isdigit() and sides.isdigit() and len(count) < 4 and len(sides) < 4:
        return int(count), int(sides)
    return None


def _shape(r: _Reader, node, count: int | None, sides: int | None, faces) -> DiceShape | None:
    """The dice's number and faces, within the bounds every feature can work to."""
    if count is None:
        return None
    names: tuple = ()
    if faces is not None:
        if not isinstance(faces, YSeq) or not faces.items:
            r.diags.error("dice: faces is a list of the faces' names, such as [crown, anchor, heart, diamond, "
                          "club, spade]", faces.position)
            return None
        said = []
        for item in faces.items:
            name = r.word(item, "dice: faces (a face's name)")
            if name is None:
                return None
            if name in DICE_FACTS or is_die_fact(name) or name in ("off", "shown"):  # the fact would hide it
                facts = [*throw_facts(DiceShape(min(max(count, 1), MAX_DICE))), "off", "shown"]
                r.diags.error(f"dice: faces names {name!r}, a fact of the throw; no face may have the name of one: "
                              f"{', '.join(facts)}", item.position, code="reserved-word")
                return None
            if name in said:
                r.diags.error(f"dice: faces names {name!r} twice; each face has a name of its own", item.position)
                return None
            said.append(name)
        names = tuple(said)
        if sides is not None and sides != len(names):
            r.diags.error(f"dice: sides is {sides} but faces names {len(names)}", faces.position)
            return None
        sides = len(names)
    sides = 6 if sides is None else sides
    where = node.get("count") if isinstance(node, YMap) and node.get("count") is not None else node
    if not 1 <= count <= MAX_DICE:
        r.diags.error(f"dice: {count} dice; hazard-dsl throws 1 to {MAX_DICE} dice", where.position)
        return None
    where = node.get("sides") if isinstance(node, YMap) and node.get("sides") is not None else node
    if not 2 <= sides <= MAX_SIDES:
        r.diags.error(f"dice: a die of {sides} {'face' if sides == 1 else 'faces'}; a die has 2 to {MAX_SIDES} "
                      f"faces", where.position)
        return None
    if sides ** count > MAX_THROWS:
        r.diags.error(f"dice: {count} dice of {sides} faces make {sides ** count:,} throws; hazard-dsl works "
                      f"to at most {MAX_THROWS:,} (every throw state holds a step for each)", node.position)
        return None
    return DiceShape(count, sides, names)


def _loading_keys(shape: DiceShape) -> K.Keys:
    """A loading's keys: one per die (die1, die2, …) and `both` (every die alike)."""
    return K.Keys(tuple(f"die{k}" for k in range(1, shape.count + 1)) + ("both",))


def _cocked(r: _Reader, node, variables) -> Cocked | None:
    """Dice that land off (cocked or wild) and are recast:

        cocked:
          chance: 1/10                      (or {by_option: cocked, one_in_ten: 1/10, …})
          rules:                            (read when a die is off; without them: recast both)
            - when: off == 2
              do: recast both
            - otherwise: recast off or both by caster
    """
    if node is None:
        return None
    m = r.mapping(node, "cocked")
    if m is None:
        return None
    m = r.keys(m, K.COCKED, "cocked")
    chances: dict = {}
    by_option = None
    given = m.get("chance")
    what = "cocked: chance (each die's chance of landing off)"
    if isinstance(given, YMap):
        if given.get(K.BY_OPTION) is None:
            r.diags.error("cocked: chance is one chance (1/10), or one per value of an option: "
                          "{by_option: OPTION, VALUE: 1/10, …}", given.position)
        else:
            by_option = r.word(given.get(K.BY_OPTION), "cocked: chance: by_option (an option)")
        for key, (key_node, value) in given.entries.items():
            if key != K.BY_OPTION:
                chances[key] = _off_chance(r, value, f"{what} for {key}")
    elif given is not None:
        chances[""] = _off_chance(r, given, what)
    rules: tuple = ()
    rules_node = m.get("rules")
    if rules_node is not None:
        if not isinstance(rules_node, YSeq) or not rules_node.items:
            r.diags.error("cocked: rules is a list of rules (- when: off == 2 … do: recast both)", rules_node.position)
        else:
            rules = tuple(_rules(r, "cocked", rules_node, variables))
    return Cocked(MappingProxyType({k: v for k, v in chances.items() if v is not None}), by_option, rules,
                  r.text(m.get("description"), "description"), m.position)


def _off_chance(r: _Reader, node, what: str) -> Fraction | None:
    value = _fraction(r, node, what, Fraction(0), Fraction(1), "at least 0 and less than 1")
    if value == 1:
        r.diags.error(f"{what} must be less than 1: dice that always land off are never thrown", node.position)
        return None
    if value is not None and value.denominator > MAX_DIE_DENOMINATOR:
        r.diags.error(f"{what}: its denominator is larger than {MAX_DIE_DENOMINATOR:,}; give a simpler fraction",
                      node.position)
        return None
    return value


def _loading(r: _Reader, m: YMap, shape: DiceShape = TWO_DICE) -> Loading:
    both = _faces(r, m.get("both"), "both", shape) if m.get("both") is not None else None
    each = [f"die{k}" for k in range(1, shape.count + 1)]
    if both is not None and any(m.get(die) is not None for die in each):
        r.diags.error(f"dice: give `both`, or {_listed(each)}, not both", m.position)
    return Loading(tuple(_faces(r, m.get(die), die, shape) if m.get(die) is not None else both for die in each))


def _listed(names: list) -> str:
    quoted = [f"`{n}`" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _faces(r: _Reader, node, what: str, shape: DiceShape = TWO_DICE) -> tuple | None:
    """Exact chances, one per face (1 to sides), each 0 or more, summing to 1."""
    n = shape.sides
    many = NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)
    if not isinstance(node, YSeq) or len(node.items) != n:
        r.diags.error(f"dice: {what} is the chance of each face, 1 to {n}: a list of {many} numbers such as "
                      + ("[1/12, 1/12, 1/12, 1/4, 1/4, 1/4]" if n == 6 else f"[{', '.join([f'1/{n}'] * min(n, 3))}, …]"),
                      node.position)
        return None
    chances = []
    for face, item in enumerate(node.items, 1):
        value = exact_amount(item.text, percent=True) if isinstance(item, YScalar) and item.value is not None \
            and not isinstance(item.value, bool) else None
        if value is None:
            r.diags.error(f"dice: {what}: the chance of face {face} must be a number such as 1/6 or 0.25",
                          item.position)
            return None
        if value < 0:
            r.diags.error(f"dice: {what}: the chance of face {face} is negative ({item.text})", item.position)
            return None
        chances.append(value)
    total = sum(chances, Fraction(0))
    if total != 1:
        r.diags.error(f"dice: {what}: the chances of the {many} faces add up to {total}, not 1", node.position)
        return None
    from math import lcm

    if lcm(*(p.denominator for p in chances)) > MAX_DIE_DENOMINATOR:
        r.diags.error(f"dice: {what}: the chances' common denominator is larger than {MAX_DIE_DENOMINATOR:,}; "
                      f"a die is described by simpler fractions", node.position)
        return None
    return tuple(chances)


# A die's chances over a common denominator at most this: its throws are drawn exactly as whole
# numbers below it, and a pair's weights stay small integers.
MAX_DIE_DENOMINATOR = 1_000_000


def _range(r: _Reader, node, what: str) -> tuple[int | None, int | None]:
    if isinstance(node, YScalar) and isinstance(node.value, str) and ".." in node.value:
        low, _, high = node.value.partition("..")
        # ASCII digits only: int() would read `٠..٥` as 0..5, and fail on 5,000 digits
        lo, hi = whole_number(low, MAX_WHOLE_DIGITS), whole_number(high, MAX_WHOLE_DIGITS)
        large = lo is None or hi is None or max(abs(lo), abs(hi)) > MAX_WHOLE
        if not large and lo <= hi:
            return lo, hi
        if large and spells_whole(low) and spells_whole(high):  # digits, too many of them
            r.diags.error(f"{what}: a range's ends are whole numbers from -{MAX_WHOLE:,} to {MAX_WHOLE:,}",
                          node.position)
            return None, None
    if isinstance(node, YSeq) and len(node.items) == 2:
        lo, hi = (r.integer(n, what) for n in node.items)
        if lo is not None and hi is not None and lo <= hi:
            return lo, hi
        if lo is None or hi is None:
            return None, None
    r.diags.error(f"{what} must be written low..high, e.g. 0..12", node.position)
    return None, None


def _variables(r: _Reader, node) -> dict[str, Variable]:
    out: dict[str, Variable] = {}
    if node is None:
        return out
    m = r.mapping(node, "variables")
    if m is None:
        return out
    for key, (key_node, value) in m.entries.items():
        name = r.word(key_node, "variable")
        if name is None:
            continue
        if name in DICE_FACTS or is_die_fact(name) or name in THROW_FUNCTIONS:
            r.diags.error(f"{name!r} is a fact of the throw and cannot be a variable", key_node.position)
            continue
        initial, low, high, description, say = 0, None, None, None, None
        if isinstance(value, YMap):
            value = r.keys(value, K.VARIABLE, f"variable {name!r}")
            if value.get("initial") is not None:
                initial = r.integer(value.get("initial"), "initial") or 0
            if value.get("range") is not None:
                low, high = _range(r, value.get("range"), "range")
            description = r.text(value.get("description"), "description")
            if value.get("say") is not None:
                say = r.narration(value.get("say"), "say", {"value", name})
        else:
            low, high = _range(r, value, f"variable {name!r}")
        if low is not None and not low <= initial <= high:
            r.diags.error(f"the initial value {initial} of {name!r} is outside its range {low}..{high}", key_node.position)
        out[name] = Variable(name, initial, low, high, description, say, key_node.position)
    return out


def _options(r: _Reader, node) -> dict[str, Option]:
    out: dict[str, Option] = {}
    if node is None:
        return out
    m = r.mapping(node, "options")
    if m is None:
        return out
    for key, (key_node, value) in m.entries.items():
        name = r.word(key_node, "option")
        spec = r.mapping(value, f"option {key!r}")
        if name is None or spec is None:
            continue
        spec = r.keys(spec, K.OPTION, f"option {name!r}")
        values_node = spec.get("values")
        values: list = []
        notes: dict = {}
        if isinstance(values_node, YSeq):
            items = [(item, None) for item in values_node.items]
        elif isinstance(values_node, YMap):  # value: what it means
            items = [(k, v) for k, v in values_node.entries.values()]
        else:
            if values_node is not None:
                r.diags.error("values must be a list, or a mapping of each value to what it means", values_node.position)
            items = []
        for item, note in items:
            v = item.value if isinstance(item, YScalar) else None
            if isinstance(v, bool) or not isinstance(v, (int, str)) or (isinstance(v, str) and not v.strip()):
                r.diags.error("an option value must be a word or a whole number", item.position)
                continue
            if isinstance(v, int) and abs(v) > MAX_WHOLE:
                r.diags.error(f"an option value is a whole number from -{MAX_WHOLE:,} to {MAX_WHOLE:,}",
                              item.position)
                continue
            if v in values:
                r.diags.error(f"option {name!r} lists {v!r} twice", item.position)
                continue
            values.append(v)
            if note is not None:
                notes[v] = r.text(note, "what the value means")
        default = values[0] if values else None
        if spec.get("default") is not None and values:
            d = spec.get("default")
            dv = d.value if isinstance(d, YScalar) else None
            if dv not in values:
                close = nearest(d.text, values) if isinstance(d, YScalar) else None
                r.diags.error(f"the default {d.text if isinstance(d, YScalar) else '?'!r} is not one of the values of option {name!r}"
                              f"{did_you_mean(d.text, values) if isinstance(d, YScalar) else ''}",
                              d.position, f"values: {', '.join(map(str, values))}", code="unknown-value",
                              suggestion=d.replaced_by(close) if close is not None else None)
            else:
                default = dv
        if not items and isinstance(values_node, (YSeq, YMap)):
            r.diags.error(f"option {name!r} has no values: list at least one", values_node.position)
        if values and len({type(v) for v in values}) > 1:
            r.diags.error(f"the values of option {name!r} must be all words or all numbers", values_node.position)
        out[name] = Option(name, tuple(values), default, r.text(spec.get("description"), "description"),
                           MappingProxyType(notes), key_node.position)
    return out


def _labels(r: _Reader, node, variables) -> dict[str, Label]:
    out: dict[str, Label] = {}
    if node is None:
        return out
    m = r.mapping(node, "labels")
    if m is None:
        return out
    for key, (key_node, value) in m.entries.items():
        name = r.word(key_node, "label")
        if name is None:
            continue
        allowed = {"caster", "total", "throw", *variables}
        say = r.narration(value, f"what label {name!r} says", allowed) if value is not None and not (
            isinstance(value, YScalar) and value.value is None) else None
        out[name] = Label(name, say, key_node.position)
    return out


def _words(r: _Reader, node, shape: DiceShape = TWO_DICE) -> Words:
    """The period's words for faces and throws; dice of other faces than six are said by their
    names (`dice: faces:`) or their numbers unless `words: faces:` names them."""
    plain = Words() if shape.sides == 6 and not shape.names else \
        Words(shape.names or tuple(str(f) for f in range(1, shape.sides + 1)))
    if node is None:
        return plain
    m = r.mapping(node, "words")
    if m is None:
        return plain
    m = r.keys(m, K.WORDS, "words")
    faces = plain.faces
    n = shape.sides
    if m.get("faces") is not None:
        f = m.get("faces")
        if isinstance(f, YSeq) and len(f.items) == n:
            faces = tuple(r.text(item, "a face name", 40) or "?" for item in f.items)
        else:
            r.diags.error("faces must list six names, ace to six" if n == 6 else
                          f"faces must list {NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else n} names, one per face",
                          f.position)
    throws: dict = {}
    if m.get("throws") is not None:
        t = r.mapping(m.get("throws"), "throws")
        low, high = shape.count, shape.count * shape.sides
        for key, (key_node, value) in (t.entries.items() if t else ()):
            spec = key.replace(" ", "")
            parsed = None
            parts = spec.split("-")
            if spec.isascii() and spec.isdigit() and len(spec) <= 3 and low <= int(spec) <= high:
                parsed = int(spec)
            elif len(parts) == shape.count and all(p.isascii() and p.isdigit() and len(p) <= 2
                                                   and 1 <= int(p) <= shape.sides for p in parts):
                parsed = tuple(sorted(int(p) for p in parts))
            if parsed is None:
                example = "-".join(["1", "2", "3", "4", "5"][:shape.count]) if shape.count > 1 else "1"
                r.diags.error(f"a throw is named by its dice (e.g. {example}) or its total ({low}..{high}), "
                              f"not {key!r}", key_node.position)
                continue
            throws[parsed] = r.text(value, "a throw's name", 60) or "?"
    caster = r.text(m.get("caster"), "caster", 60) if m.get("caster") is not None else "the caster"
    table = {key: r.text(m.get(key), key, 40) for key in ("setters", "box", "casts") if m.get(key) is not None}
    return Words(faces, MappingProxyType(throws), caster, **table)


def _phases(r: _Reader, node, variables) -> dict[str, Phase] | None:
    if node is None:
        return None
    m = r.mapping(node, "phases")
    if m is None:
        return None
    if not m.entries:
        r.diags.error("a ruleset needs at least one phase", m.position)
    out: dict[str, Phase] = {}
    for key, (key_node, value) in m.entries.items():
        name = r.word(key_node, "phase")
        if name is None:
            continue
        throws, description, rules_node = True, None, value
        if isinstance(value, YMap):
            value = r.keys(value, K.PHASE, f"phase {name!r}")
            description = r.text(value.get("description"), "description")
            if value.get("throw") is not None:
                throws = r.boolean(value.get("throw"), "throw")
                throws = True if throws is None else throws
            rules_node = value.get("rules")
        if isinstance(value, YMap) and rules_node is None:
            rules = ()  # already reported: the phase needs 'rules'
        elif not isinstance(rules_node, YSeq) or not rules_node.items:
            r.diags.error(f"phase {name!r} needs a list of rules (- when: … do: …, - otherwise: …)",
                          (rules_node or value or key_node).position)
            rules: tuple = ()
        else:
            rules = tuple(_rules(r, name, rules_node, variables))
        out[name] = Phase(name, throws, rules, description, key_node.position)
    return out


def _rules(r: _Reader, phase: str, node: YSeq, variables):
    narration_names = {"caster", "total", "throw", *variables}
    seen_otherwise = None
    for index, item in enumerate(node.items):
        m = r.mapping(item, "a rule")
        if m is None:
            continue
        # a misspelt key (`wen:`) is reported and read as the key it stands for, so the
        # condition or the actions under it are checked in this run, not the next
        m = r.keys(m, K.RULE, "a rule")
        after_otherwise = seen_otherwise is not None
        if after_otherwise:
            r.diags.error("a rule after `otherwise` can never fire", m.position,
                          f"`otherwise` is at line {seen_otherwise.line}; it must come last",
                          code="unreachable-rule")
            # it cannot change the game: the game is still explored without it (`read_ruleset`)
            r.dead_rules.add(m.position)
        condition = None
        actions_node = None
        if "otherwise" in m.entries:
            if "when" in m.entries or "do" in m.entries:
                r.diags.error("a rule has either `when:` and `do:`, or `otherwise:`", m.position)
            actions_node = m.get("otherwise")
            seen_otherwise = m.key_position("otherwise")
        else:
            when, actions_node = m.get("when"), m.get("do")
            if when is None or actions_node is None:
                r.diags.error("a rule needs `when:` and `do:` (or `otherwise:`)", m.position)
                continue
            condition = _expression(r, when, "condition")
        actions = _actions(r, actions_node)
        say = r.narration(m.get("say"), "say", narration_names) if m.get("say") is not None else None
        if actions is not None:
            yield Rule(phase, index, condition, actions, say, m.position)


def checked_keys(node: YMap, table: K.Keys, what: str, diags: Diagnostics) -> YMap:
    """`_Reader.keys` for a section checked after the reading (check.printed), its problems
    added to `diags`: unknown keys with "did you mean", required keys, misspelt ones read as
    the key they stand for."""
    reader = _Reader()
    reader.diags = diags
    return reader.keys(node, table, what)


def checked_text(node, what: str, diags: Diagnostics) -> str | None:
    """`_Reader.text` (one line of text, bounded) into `diags`, as `checked_keys`."""
    reader = _Reader()
    reader.diags = diags
    return reader.text(node, what)


def _misspelt_read_as(m: YMap, table: K.Keys) -> YMap:
    """`m` with each unknown key that is close to exactly one allowed key it lacks read as that key
    (`wen:` as `when:`); the unknown key itself is reported by `_Reader.keys`."""
    allowed = table.allowed
    if all(key in allowed for key in m.entries):  # (nearly every mapping: nothing to look for)
        return m
    from difflib import get_close_matches

    missing = [k for k in table.allowed if k not in m.entries]
    renamed = {}
    for key in m.entries:
        if key in table.allowed:
            continue
        close = get_close_matches(key, missing, n=1, cutoff=0.75)
        if close and close[0] not in renamed.values() and not K.source_word(key):
            renamed[key] = close[0]
    if not renamed:
        return m
    return YMap({renamed.get(k, k): v for k, v in m.entries.items()}, m.position)


def _expression(r: _Reader, node, what: str):
    if not isinstance(node, YScalar) or node.value is None:
        r.diags.error(f"the {what} must be an expression written on one line", node.position if node else None)
        return None
    try:
        return parse_expression(node, what)
    except RulesetError as exc:
        r.diags.extend(exc.diagnostics)
        return None


def _actions(r: _Reader, node):
    if not isinstance(node, YScalar) or node.value is None:
        r.diags.error("actions are written as text: `win nick`, `set main = total; goto chance`, `throw again`",
                      node.position if node else None)
        return None
    try:
        return parse_actions(node)
    except RulesetError as exc:
        r.diags.extend(exc.diagnostics)
        return None


def _passing(r: _Reader, node) -> Passing | None:
    if node is None:
        return None
    m = r.mapping(node, "passing")
    if m is None:
        return None
    m = r.keys(m, K.PASSING, "passing")
    losses = None
    given = m.get("losses_in_a_row")
    if given is not None:
        if isinstance(given, YScalar) and isinstance(given.value, str):
            # an expression over the options (`if option.passing == "three" then 3 else 1`)
            losses = _expression(r, given, "number of losses in a row")
        else:
            losses = r.integer(given, "losses_in_a_row")
            if losses is not None and not 0 <= losses <= 100:
                r.diags.error("losses_in_a_row must be between 0 (never) and 100", given.position)
    labels: tuple = ()
    if m.get("after_labels") is not None:
        node_ = m.get("after_labels")
        if isinstance(node_, YSeq):
            labels = tuple(r.word(item, "a label") or "" for item in node_.items)
        else:
            r.diags.error("after_labels must be a list of labels", node_.position)
    voluntary = r.boolean(m.get("voluntary_after_win"), "voluntary_after_win") if m.get("voluntary_after_win") is not None else False
    first = r.text(m.get("first"), "first", 40) if m.get("first") is not None else None
    if first is not None and first not in FIRST_CASTER:
        r.diags.error(f"passing: first is {', '.join(FIRST_CASTER[:-1])} or {FIRST_CASTER[-1]}, not {first!r}"
                      f"{did_you_mean(first, FIRST_CASTER)}", m.get("first").position, code="unknown-value",
                      suggestion=_replacing(m.get("first"), nearest(first, FIRST_CASTER)))
        first = None
    return Passing(losses, labels, bool(voluntary), r.text(m.get("description"), "description"),
                   m.get("after_labels").position if m.get("after_labels") is not None else m.position,
                   given.text.strip() if isinstance(given, YScalar) else None, first or "seat_order")


# --------------------------------------------------------------------------- money


def _money(r: _Reader, node) -> Table:
    if node is None:
        return Table()
    m = r.mapping(node, "money")
    if m is None:
        return Table()
    m = r.keys(m, K.MONEY, "money")
    choices = {}
    for key, allowed, default in (("against", AGAINST, "setters"), ("when_short", WHEN_SHORT, "refuse"),
                                  ("refuse", REFUSE, "at_will")):
        given = r.text(m.get(key), key, 40) if m.get(key) is not None else None
        if given is not None and given not in allowed:
            r.diags.error(f"money: {key} is {' or '.join(allowed)}, not {given!r}"
                          f"{did_you_mean(given, allowed)}", m.get(key).position, code="unknown-value",
                          suggestion=_replacing(m.get(key), nearest(given, allowed)))
            given = None
        choices[key] = given or default
    stake = r.word(m.get("stake"), "money: stake (a bet)") if m.get("stake") is not None else None
    return Table(r.text(m.get("unit"), "unit", 40) or "unit", choices["against"], choices["when_short"], stake,
                 (m.get("stake") or m).position, units=r.text(m.get("units"), "units (the unit's plural)", 40),
                 refuse=choices["refuse"], coins=_coins(r, m.get("coins")), sums=_sums(r, m.get("sums")))


def _coins(r: _Reader, node) -> tuple:
    """`money: coins:`, each coin by name with its worth in the unit; largest first, as a sum is
    told (£ s d)."""
    if node is None:
        return ()
    m = r.mapping(node, "money: coins")
    if m is None:
        return ()
    if len(m.entries) > K.MAX_COINS:
        r.diags.error(f"money: coins names more than {K.MAX_COINS} coins", m.position)
        return ()
    coins, worths = [], {}
    for name, (key_node, spec_node) in m.entries.items():
        spec = r.mapping(spec_node, f"coin {name!r}") if spec_node is not None else \
            r.mapping(key_node, f"coin {name!r}")
        if spec is None:
            continue
        spec = r.keys(spec, K.COIN, f"coin {name!r}")
        if not name.strip() or len(name) > K.MAX_CALLED_CHARS:
            r.diags.error(f"a coin's name is words of 1 to {K.MAX_CALLED_CHARS} characters", key_node.position)
            continue
        worth = _fraction(r, spec.get("worth"), f"coin {name!r}: worth", Fraction(0), None, "more than 0") \
            if spec.get("worth") is not None else None
        if worth == 0:
            r.diags.error(f"coin {name!r}: worth must be more than 0", spec.get("worth").position)
            worth = None
        short = r.text(spec.get("short"), f"coin {name!r}: short", K.MAX_CALLED_CHARS) \
            if spec.get("short") is not None else None
        if short is not None and short.count("{n}") != 1:
            r.diags.error(f"coin {name!r}: short must hold {{n}} once, where the count goes: \"{{n}}d\", \"£{{n}}\"",
                          spec.get("short").position)
            short = None
        places = 0
        if spec.get("places") is not None:
            places = r.integer(spec.get("places"), f"coin {name!r}: places") or 0
            if not 0 <= places <= K.MAX_PLACES:
                r.diags.error(f"coin {name!r}: places must be 0 to {K.MAX_PLACES}", spec.get("places").position)
                places = 0
        if worth is None:
            continue
        if worth in worths:
            r.diags.error(f"coin {name!r} is worth what coin {worths[worth]!r} is: one sum would be told two ways",
                          spec.get("worth").position)
            continue
        worths[worth] = name
        coins.append(Coin(name, worth, r.text(spec.get("plural"), f"coin {name!r}: plural", K.MAX_CALLED_CHARS),
                          short, places, key_node.position))
    return tuple(sorted(coins, key=lambda c: -c.worth))


def _sums(r: _Reader, node) -> tuple:
    """`money: sums:`, the sums the period names: words to an amount in the unit."""
    if node is None:
        return ()
    m = r.mapping(node, "money: sums")
    if m is None:
        return ()
    sums, amounts = [], {}
    for words, (key_node, value) in m.entries.items():
        if not words.strip() or len(words) > K.MAX_CALLED_CHARS:
            r.diags.error(f"a named sum is words of 1 to {K.MAX_CALLED_CHARS} characters", key_node.position)
            continue
        amount = _fraction(r, value, f"sum {words!r}", Fraction(0), None, "more than 0")
        if amount is None:
            continue
        if amount == 0:
            r.diags.error(f"sum {words!r} must be more than 0", value.position)
            continue
        if amount in amounts:
            r.diags.error(f"sums {amounts[amount]!r} and {words!r} name the same amount", key_node.position)
            continue
        amounts[amount] = words
        sums.append(Sum(words, amount, key_node.position))
    return tuple(sums)


def _fraction(r: _Reader, node, what: str, low: Fraction | None = None, high: Fraction | None = None,
              within: str = "") -> Fraction | None:
    """`5%`, `1/20`, `10.5`, `21/2`, `12`: exact, never a float; optionally within [low, high]."""
    if isinstance(node, YScalar) and node.value is not None and not isinstance(node.value, bool):
        value = exact_amount(node.text)
        if value is not None:
            if (low is not None and value < low) or (high is not None and value > high):
                r.diags.error(f"{what} must be {within}, not {node.text.strip()[:30]}", node.position)
                return None
            return value
    r.diags.error(f"{what} must be an exact number such as 12, 10.5, 21/2 or 5% (at most {MAX_DIGITS} digits "
                  f"in each part)", node.position if node else None)
    return None


def _role(r: _Reader, node, what: str, default: str) -> str:
    if node is None:
        return default
    role = r.text(node, what, 40)
    if role is not None and role not in ROLES:
        r.diags.error(f"{what} must be one of {', '.join(ROLES)}, not {role!r}"
                      f"{'' if K.source_word(role) else did_you_mean(role, ROLES)}", node.position, _role_hint(role),
                      code="unknown-value",
                      suggestion=None if K.source_word(role) else _replacing(node, nearest(role, ROLES)))
    return role or default


def _replacing(node, text: str | None):
    """The repair putting `text` (a close known word) in place of the scalar `node`, if any."""
    return node.replaced_by(text) if text is not None and isinstance(node, YScalar) else None


def _role_hint(role: str) -> str | None:
    """`shooter` is craps' word for the caster: write `caster`."""
    said = K.source_word(role)
    return f"{said}: write `{K.SOURCE_WORDS[role.lower()][0]}`" if said else None


def _bet_phases(r: _Reader, spec: YMap, name: str, variables, what: str):
    """A bet's (or fee's) rules: `rules:` for one phase, or `phases:` (+ `start:`) for several;
    or, for a bet settled by one throw, `wins:` (and `pushes:`), short for the rules
    `- when: WINS do: win`, `- when: PUSHES do: push`, `- otherwise: lose`."""
    given = [key for key in ("rules", "phases", "wins") if spec.get(key) is not None]
    if len(given) > 1:
        r.diags.error(f"{what} has one of rules:, phases: or wins:, not {' and '.join(given)}", spec.position)
    elif spec.get("pushes") is not None and spec.get("wins") is None:
        r.diags.error(f"{what}: pushes: goes with wins: (a bet settled by one throw)", spec.get("pushes").position)
    if spec.get("wins") is not None and not given[1:]:
        rules_node = _one_throw_rules(spec.get("wins"), spec.get("pushes"))
        return {name: Phase(name, True, tuple(_rules(r, name, rules_node, variables)), None, spec.position)}, name
    if spec.get("phases") is not None:
        phases = _phases(r, spec.get("phases"), variables) or {}
        start = r.word(spec.get("start"), "start") if spec.get("start") is not None else next(iter(phases), None)
        if start is not None and phases and start not in phases:
            r.diags.error(f"start: {what} has no phase {start!r}", spec.get("start").position)
        return phases, start or ""
    rules_node = spec.get("rules")
    if not isinstance(rules_node, YSeq) or not rules_node.items:
        r.diags.error(f"{what} needs rules: (a list of - when: … do: …)", (rules_node or spec).position)
        return {}, name
    return {name: Phase(name, True, tuple(_rules(r, name, rules_node, variables)), None, spec.position)}, name


def _one_throw_rules(wins, pushes) -> YSeq:
    """The rules `wins:` and `pushes:` stand for, as the rule file would write them; each
    condition is the author's own node, so a problem in it is placed where it is written."""
    def key(word: str, at) -> YScalar:
        return YScalar(word, word, at.position)

    items = [YMap({"when": (key("when", wins), wins), "do": (key("do", wins), key("win", wins))}, wins.position)]
    if pushes is not None:
        items.append(YMap({"when": (key("when", pushes), pushes), "do": (key("do", pushes), key("push", pushes))},
                          pushes.position))
    items.append(YMap({"otherwise": (key("otherwise", wins), key("lose", wins))}, wins.position))
    return YSeq(tuple(items), wins.position)


def _named_specs(r: _Reader, node, section: str, kind: str, keys: K.Keys):
    """(name, key node, spec) for each entry of a section of named mappings (bets:, fees:)."""
    m = r.mapping(node, section) if node is not None else None
    for key, (key_node, value) in (m.entries.items() if m else ()):
        name = r.word(key_node, kind)
        spec = r.mapping(value, f"{kind} {key!r}")
        if name is not None and spec is not None:
            spec = r.keys(spec, keys, f"{kind} {name!r}")
            yield name, key_node, spec


def _bets(r: _Reader, node, game_variables) -> dict:
    out: dict = {}
    if node is not None:
        # a bet's rules read the game's `phase`, `result` and `label`: no game variable may be one
        for clash in sorted(set(game_variables) & set(BET_FACTS)):
            r.diags.error(f"{clash!r} is what a bet's rules read of the game (its {clash}); name the variable "
                          f"otherwise", game_variables[clash].position)
    for name, key_node, spec in _named_specs(r, node, "bets", "bet", K.BET):
        own = _variables(r, spec.get("variables"))
        for clash in set(own) & set(game_variables):
            r.diags.error(f"bet {name!r}: {clash!r} is already a variable of the game", own[clash].position)
        for clash in set(own) & set(BET_FACTS):
            r.diags.error(f"bet {name!r}: {clash!r} is what a bet's rules read of the game; name the variable "
                          f"otherwise", own[clash].position)
        phases, start = _bet_phases(r, spec, name, {**game_variables, **own}, f"bet {name!r}")
        made = _expression(r, spec.get("made"), "condition for making the bet") if spec.get("made") is not None else None
        pays = None
        if spec.get("pays") is not None:
            node_ = spec.get("pays")
            if isinstance(node_, YScalar) and node_.value is not None:
                try:
                    pays = parse_payout(node_)
                except RulesetError as exc:
                    r.diags.extend(exc.diagnostics)
            else:
                r.diags.error("pays must read like 7 to 6 or 30 for 1", node_.position)
        commission = _commission(r, spec.get("commission")) if spec.get("commission") is not None else None
        multiples = {}
        if spec.get("multiples") is not None:
            mm = r.mapping(spec.get("multiples"), "multiples")
            for mkey, (mkey_node, mvalue) in (mm.entries.items() if mm else ()):
                expression = _expression(r, mvalue, "multiple")
                if expression is not None:
                    multiples[mkey] = expression
        backs = r.word(spec.get("backs"), "backs") if spec.get("backs") is not None else None
        own_game = False
        if spec.get("game") is not None:
            game = r.text(spec.get("game"), "game", 20)
            if game not in K.BET_GAMES:
                r.diags.error("game: is `own` (the bet plays a game of its own, from when it is made) or `table` "
                              "(it reads the table's game, the default)", spec.get("game").position)
            own_game = game == "own"
        out[name] = Bet(name, r.text(spec.get("description"), "description"),
                        _role(r, spec.get("backer"), "backer", "caster"), _role(r, spec.get("layer"), "layer", "setter"),
                        made, backs, pays, spec.get("pays").text.strip() if pays is not None else None, commission, MappingProxyType(multiples), MappingProxyType(own),
                        MappingProxyType(phases), start, key_node.position, own_game,
                        called=_called(r, spec.get("called"), f"bet {name!r}"))
    for bet in out.values():
        if bet.backs is not None and bet.backs not in out:
            r.diags.error(f"bet {bet.name!r} backs {bet.backs!r}, which is not a bet", bet.position)
    return out


def _called(r: _Reader, node, what: str) -> str | None:
    """What players call a bet or a fee (`called:`): words, told as they stand."""
    if node is None:
        return None
    called = r.text(node, f"{what}: called", K.MAX_CALLED_CHARS)
    if called is not None and not called.strip():
        r.diags.error(f"{what}: called must be words (what players call it)", node.position)
        return None
    return called.strip() if called else None


def _commission(r: _Reader, node) -> Commission | None:
    m = r.mapping(node, "commission")
    if m is None:
        return None
    m = r.keys(m, K.COMMISSION, "commission")
    rate = _fraction(r, m.get("rate"), "rate", Fraction(0), Fraction(1), "between 0% and 100%") \
        if m.get("rate") is not None else None
    of = r.text(m.get("of"), "of", 10) if m.get("of") is not None else "bet"
    if of not in K.COMMISSION_OF:
        r.diags.error("commission of: must be bet or win", m.get("of").position)
    paid_node = m.get("paid")
    paid = ex.String("on_win", m.position)
    if paid_node is not None:
        if isinstance(paid_node, YScalar) and paid_node.text in COMMISSION_PAID:
            paid = ex.String(paid_node.text, paid_node.position)
        else:
            paid = _expression(r, paid_node, "commission's paid:")
    return Commission(rate or Fraction(0), of or "bet", paid, m.position)


def _fees(r: _Reader, node) -> dict:
    out: dict = {}
    for name, key_node, spec in _named_specs(r, node, "fees", "fee", K.FEE):
        own = _variables(r, spec.get("variables"))
        phases, _ = _bet_phases(r, spec, name, own, f"fee {name!r}")
        amount = _fraction(r, spec.get("amount"), "amount", Fraction(0), None, "0 or more") \
            if spec.get("amount") is not None else None
        for clash in set(own) & {"result", "label"}:
            r.diags.error(f"fee {name!r}: {clash!r} is what a fee's rules read (how the game ended); name the "
                          f"variable otherwise", own[clash].position)
        out[name] = Fee(name, r.text(spec.get("description"), "description"),
                        _role(r, spec.get("payer"), "payer", "caster"), r.text(spec.get("payee"), "payee", 60) or "the box",
                        amount or Fraction(0), MappingProxyType(own), phases[name].rules if name in phases else (),
                        key_node.position, called=_called(r, spec.get("called"), f"fee {name!r}"))
    return out
