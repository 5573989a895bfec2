"""Money and exact amounts as text, below every stage that needs them: an amount told in the
ruleset's coin ("1s 10½d") and read back as a player types it ("8s 6d"), and a fraction as
JSON's exact string. Play reads and tells its stakes with these, and a simulation's report
writes its figures, neither importing the renderers above them (the import contracts in
pyproject.toml); render.words and render.tables re-export them.
"""

from __future__ import annotations

import sys
from fractions import Fraction

from .model import plural


def digits(n: int) -> str:
    """str(n) for an integer we computed ourselves, however long: Python refuses more than
    4300 digits by default, a guard meant for parsing untrusted text, not printing our results."""
    try:
        return str(n)
    except ValueError:
        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            return str(n)
        finally:
            sys.set_int_max_str_digits(old)


def exact(value: Fraction | int) -> str:
    """A fraction in lowest terms as a string: "1979/4032", "0", "1" (every digit: for JSON)."""
    value = Fraction(value)
    if value.denominator == 1:
        return digits(value.numerator)
    return f"{digits(value.numerator)}/{digits(value.denominator)}"


# Fractions a reader knows at sight, written as the period wrote them (10½d); others as n/m.
_GLYPHS = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}


def number(value, places: int = 2, glyphs: bool = False) -> str:
    """An exact amount as a person reads it, never an improper fraction: 12, 12.50 (a decimal to
    `places` where that is exact), else a whole number and a proper fraction: 1 7/8 (with
    `glyphs`, ½ ¼ ¾ as such: 10½)."""
    value = Fraction(value)
    sign, value = ("-" if value < 0 else ""), abs(value)
    whole, part = divmod(value, 1)
    if not part:
        return f"{sign}{whole}"
    scaled = value * 10**places
    if places and scaled.denominator == 1:
        digits = str(scaled.numerator).rjust(places + 1, "0")
        return f"{sign}{digits[:-places]}.{digits[-places:]}"
    if glyphs and part in _GLYPHS:
        return f"{sign}{whole or ''}{_GLYPHS[part]}"
    return f"{sign}{whole} {part}" if whole else f"{sign}{part}"


def amount(value, unit: str, units: str | None = None) -> str:
    """Money in the rule file's unit: "1 shilling", "2 pence", "1 7/8 shillings" — the unit for
    one, its plural (`units`, else made by rule) for any other amount; never an improper fraction."""
    value = Fraction(value)
    return f"{number(value)} {unit if abs(value) == 1 else units or plural(unit)}"


def money_amount(ruleset, value) -> str:
    """Money as the ruleset's players tell it: a sum the period names ("half a guinea"), else in
    its coinage (`money: coins:`, "1s 10½d"), else in its unit ("21/2" → "10.50 shillings")."""
    return money_told(ruleset.table, value)


def money_mark(table) -> str:
    """The mark before a line of money in a narration: the sign the ruleset's largest coin is
    written with where it has one (`£{n}`: "£", `${n}`: "$"), else a plain dot; a game of
    shillings is not told in dollars, nor a game of units."""
    for coin in table.coins:
        sign = (coin.short or "").partition("{n}")[0].strip()
        if sign and "{n}" in coin.short:
            return sign
    return "·"


def money_told(table, value) -> str:
    """`money_amount` for a ruleset's `Table` (its `money:`). What is left below the smallest
    coin is told exactly as a fraction of that coin: 1/96 shilling is "⅛d" ("1/8d"), a farthing
    ¼d."""
    value = Fraction(value)
    if value < 0:
        return "-" + money_told(table, -value)
    for named in table.sums:
        if named.amount == value:
            return named.words
    coins = table.coins
    if not coins:
        return amount(value, table.unit, table.units)
    if value == 0:
        coin = next((c for c in coins if c.worth == 1), coins[-1])
        return _coin(coin, Fraction(0))
    parts, rest = [], value
    for i, coin in enumerate(coins):
        if i == len(coins) - 1:
            count = rest / coin.worth
        else:
            count = Fraction(rest // coin.worth)
        rest -= count * coin.worth
        if count:
            parts.append(_coin(coin, count))
    if all(c.short for c in coins):
        return " ".join(parts)
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _coin(coin, count: Fraction) -> str:
    """A count of one coin: "6d", "£1", "$12.50", "6 pence"."""
    shown = number(count, coin.places, glyphs=True) if coin.places else number(count, 0, glyphs=True)
    if coin.short:
        return coin.short.replace("{n}", shown)
    return f"{shown} {coin.name if count == 1 or 0 < count < 1 else coin.names}"


# ---------------------------------------------------------------------- money as people type it

MAX_MONEY_TEXT = 80  # characters of an amount read; a longer text is no amount of money
_DIGITS = 15  # in each part of a number (parse.numbers.MAX_DIGITS): no amount needs more
_TYPED_GLYPHS = {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4), "⅛": Fraction(1, 8),
                 "⅜": Fraction(3, 8), "⅝": Fraction(5, 8), "⅞": Fraction(7, 8), "⅓": Fraction(1, 3),
                 "⅔": Fraction(2, 3)}
_G = "".join(_TYPED_GLYPHS)
_D = rf"[0-9]{{1,{_DIGITS}}}"  # ASCII digits: \d would take ٣
# a count as money_told writes one (12, 12.50, 10½, 1 1/8, 1/8, ½) and as people type it (2 1/2)
_COUNT = (rf"(?:{_D}/{_D}"
          rf"|{_D}(?:\.{_D})?(?:\s*[{_G}]|\s+{_D}/{_D})?"
          rf"|[{_G}])")


# a coin's count ends where no letter follows ("1s6d"; not the "1 s" of "1 shilling"), and the
# count gives back what the next coin needs ("£1 1/8d": £1, then 1/8d)
_END = r"(?![^\W\d_])"
# ... but never inside a number: "£21 12/1163d" is £21 and 12/1163d, not £21 12/116 and 3d (a
# count given back by the regular expression's backtracking stops only where no digit follows)
_WHOLE = r"(?![0-9])"


class MoneyText(ValueError):
    """Text that is no amount of money: the message says what was not understood."""


def _count_value(text: str) -> Fraction:
    """The exact value of a count `_COUNT` matched (ASCII digits and the glyphs only)."""
    text = text.strip()
    value = Fraction(0)
    if text[-1:] in _TYPED_GLYPHS:
        value, text = _TYPED_GLYPHS[text[-1]], text[:-1].strip()
    elif " " in text or "\t" in text:
        text, part = text.split(None, 1)
        value = _count_value(part)
    if not text:
        return value
    number, _, denominator = text.partition("/")
    if denominator:
        if int(denominator) == 0:
            raise MoneyText(f"not an amount of money: {text!r} divides by 0")
        return value + Fraction(int(number), int(denominator))
    return value + Fraction(number)  # digits, a point, digits: exact (no float on the way)


# "a guinea", "an angel", "one crown", "half a guinea": one of a coin, or half of one, by its name
_ONE = r"(?:an?|one)\s+"
_HALF = r"half\s+an?\s+"


def _sums_coins(table, known) -> list:
    """(name, plural, worth) of each coin a named sum speaks of by its name and is not among
    the coins: "half a guinea" (21/2 shillings) names a guinea of 21, so that "a guinea" and
    "5 guineas" read at the table that names half of one. Read from the sum's own words, for any
    coin a ruleset's sums name so; a sum in other words names no coin."""
    import re as _re

    found, seen = [], {k.casefold() for k in known}
    for named in table.sums:
        words = " ".join(named.words.split())
        for lead, share in ((_HALF, Fraction(1, 2)), (_ONE, Fraction(1))):
            m = _re.fullmatch(rf"{lead}(?P<coin>[^\W\d_][^\d]*)", words, _re.IGNORECASE)
            if m:
                coin = m.group("coin")
                if coin.casefold() not in seen:
                    seen.add(coin.casefold())
                    found.append((coin, plural(coin), named.amount / share))
                break
    return found


def _coin_patterns(table) -> list:
    """(compiled pattern, worth) for each way of writing a count of a coin: its short form
    ("{n}s", "£{n}", "${n}") and its names ("6 pence", "1 shilling", "a shilling", "half a
    pound"); with no coins declared, the file's unit by its names ("2 shillings"); and a coin
    the ruleset's sums name ("half a guinea": "2 guineas", `_sums_coins`)."""
    import re as _re

    coins = list(table.coins)
    named = [(c.name, c.names, c.short, c.worth) for c in coins]
    if not coins:
        named.append((table.unit, table.units or plural(table.unit), None, Fraction(1)))
    known = [w for n, ns, _, _ in named for w in (n, ns)]
    named += [(n, ns, None, worth) for n, ns, worth in _sums_coins(table, known)]
    patterns = []
    for name, names, short, worth in named:
        if short and "{n}" in short:
            before, _, after = short.partition("{n}")
            patterns.append((_re.compile(rf"{_re.escape(before.strip())}\s*(?P<n>{_COUNT}){_WHOLE}\s*"
                                         rf"{_re.escape(after.strip())}{_END}", _re.IGNORECASE), worth))
        words = sorted({name, names}, key=len, reverse=True)
        spelt = "|".join(r"\s+".join(map(_re.escape, w.split())) for w in words)
        patterns.append((_re.compile(rf"(?P<n>{_COUNT}){_WHOLE}\s*(?:{spelt}){_END}", _re.IGNORECASE), worth))
        patterns.append((_re.compile(rf"{_ONE}(?:{spelt}){_END}", _re.IGNORECASE), worth))  # "a shilling"
        patterns.append((_re.compile(rf"{_HALF}(?:{spelt}){_END}", _re.IGNORECASE), worth / 2))
    return patterns


def money_read(table, text: str) -> Fraction:
    """The amount `text` says in a ruleset's money (its `Table`): the inverse of `money_told`,
    exactly. A plain number is in the file's unit ("2", "2.50", "5/2"); else a sum the ruleset
    names ("half a guinea"), or counts of its coins as `money_told` writes them or as people type
    them ("8s 6d", "8s6d", "£1 1s", "1½d", "1 1/8d", "6 pence", "$12.50"), in any case, with
    spaces, commas or "and" between. Raises MoneyText naming what was not understood."""
    import re as _re

    from .parse.numbers import exact_amount

    if not isinstance(text, str):
        raise MoneyText(f"not an amount of money: {text!r}")
    text = " ".join(text.split())
    if len(text) > MAX_MONEY_TEXT:
        raise MoneyText(f"too long for an amount of money: {text[:30]!r}… (at most {MAX_MONEY_TEXT} "
                        f"characters)")
    if not text:
        raise MoneyText("no amount of money was written")
    plain = exact_amount(text, percent=False)
    if plain is not None:
        return plain
    if _re.fullmatch(r"[+-]?[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?", text):
        from .parse.numbers import MAX_DIGITS

        # a plain number refused for its length: said so, not read as coins not understood
        longest = max(len(part) for part in _re.split(r"[./]", text.lstrip("+-")))
        if longest > MAX_DIGITS:
            shown = text if len(text) <= 24 else f"{text[:12]}… ({len(text)} characters)"
            raise MoneyText(f"an amount of money has at most {MAX_DIGITS} digits in each part (whole, "
                            f"decimals, denominator), not {longest}: {shown}")
    key = text.casefold()
    for named in table.sums:
        if " ".join(named.words.split()).casefold() == key:
            return named.amount
    if _re.fullmatch(_COUNT, text):  # "2 1/2", "2½": a number in the unit, as a person writes it
        return _count_value(text)
    patterns = _coin_patterns(table)
    total, at, said = Fraction(0), 0, 0
    while at < len(text):
        gap = _re.compile(r"(?:\s|,|\band\b)*", _re.IGNORECASE).match(text, at)
        at = gap.end()
        if at >= len(text):
            break
        best = None
        for pattern, worth in patterns:
            m = pattern.match(text, at)
            if m and (best is None or m.end() > best[0].end()):
                best = (m, worth)
        if best is None:
            word = _not_understood(text, at, patterns)[:30]
            where = "" if word == text else f" in {text!r} is not understood"
            raise MoneyText(f"not an amount of money: {word!r}{where}; write it as {money_examples(table)}")
        m, worth = best
        count = _count_value(m.group("n")) if "n" in m.groupdict() and m.group("n") else Fraction(1)
        total += count * worth
        at, said = m.end(), said + 1
    if not said:
        raise MoneyText(f"not an amount of money: {text!r}; write it as {money_examples(table)}")
    return total


def _not_understood(text: str, at: int, patterns) -> str:
    """The word at `at` that no coin reads: after a count or "a"/"half a" that is understood
    ("2 guineas", "half a crown": the coin's word, not the count before it), unless what
    follows that count reads by itself ("2 6d": the "2" is what is not understood)."""
    import re as _re

    lead = _re.compile(rf"(?:{_COUNT}\s+|{_HALF}|{_ONE})(?=[^\W\d_])", _re.IGNORECASE).match(text, at)
    if lead and not any(pattern.match(text, lead.end()) for pattern, _ in patterns):
        at = lead.end()
    return text[at:].split()[0]


def money_examples(table) -> str:
    """How an amount may be written at this table: "2s 6d, or 2.50 in shillings"."""
    example = Fraction(5, 2)
    told = money_told(table, example)
    plain = f"{number(example)} in {table.units or plural(table.unit)}"
    return plain if told.startswith(number(example) + " ") else f"{told}, or {plain}"


def money_typed(ruleset, text: str) -> Fraction:
    """`money_read` at a ruleset's table."""
    return money_read(ruleset.table, text)
