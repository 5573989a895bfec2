"""Play at one terminal: the people at the table answer the session engine's questions.

This is one front end over the table's questions and events (play.table.Table); the web
tables (serve.tables) are another. Every prompt takes `?` (help), `rules`, `odds`, `purses`
and `quit` besides its own answer; bad input gets a short message and the question again.
The odds it gives are play.odds's figures in render.chances' words, as the web tables too.
"""

from __future__ import annotations

from fractions import Fraction

from ..play.odds import Odds
from ..render.chances import choices_words, standing_words, value_words

HELP = ("At any question: ? for this help, rules for the rules of the table, odds for the caster's chance "
        "from here (at a choice, with each answer), purses for every purse and the wagers up, bets to bet "
        "before the next throw (NAME BET AMOUNT, or NAME lay BET AMOUNT to lay a side bet; a name in any "
        "case, or in quotes), quit to end the session.")
SIDE_WORDS = {"back": "backer", "backs": "backer", "lay": "layer", "lays": "layer"}
MAX_ANSWER = 200  # characters of an answer used; more is no answer
MAX_ANSWER_BYTES = 4096  # bytes of one line of input read; a longer line is refused, never held whole


class SessionOver(Exception):
    """The people ended the session (quit, end of input)."""


class UnreadableAnswer(ValueError):
    """A line of input that is no answer: too long, or not text in the input's encoding. The
    question is asked again."""


def read_answer(stdin) -> str:
    """One line of input, without its line break, read as bytes at most MAX_ANSWER_BYTES at a
    time (a line of any length costs no more memory than that) and decoded strictly: raises
    UnreadableAnswer for a longer line (read to its end and dropped) or for bytes that are not
    text in the input's encoding, EOFError at the end of input."""
    raw = getattr(stdin, "buffer", None)
    if raw is None:  # a text stream with no bytes under it (a test's StringIO)
        line = stdin.readline(MAX_ANSWER_BYTES + 1)
        data = None
    else:
        data = raw.readline(MAX_ANSWER_BYTES + 1)
        line = data
    if not line:
        raise EOFError
    if len(line) > MAX_ANSWER_BYTES and not line.endswith(b"\n" if data is not None else "\n"):
        while True:  # the rest of the line, in pieces, dropped
            more = (raw or stdin).readline(1 << 16)
            if not more or more.endswith(b"\n" if data is not None else "\n"):
                break
        raise UnreadableAnswer(f"That line is too long to be an answer (more than {MAX_ANSWER_BYTES:,} bytes); "
                               f"answer again, or ? for help.")
    if data is not None:
        encoding = getattr(stdin, "encoding", None) or "utf-8"
        try:
            line = data.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            raise UnreadableAnswer(f"That answer is not readable text (bytes that are not {encoding}); "
                                   f"answer again, or ? for help.") from None
    return line.rstrip("\r\n")


def name_key(name: str) -> str:
    """A seat's name as the table compares it: case and runs of spaces aside (`--players`
    refuses two names that differ only so: commands.sessions.checked_players)."""
    return " ".join(name.split()).casefold()


def seat_at_start(line: str, names) -> tuple[str | None, str]:
    """The seat named at the start of `line` and the rest of it: the longest of `names` that
    begins the line, compared as `name_key` does ("the guildmaster side 2"), or a name in
    quotes ("'Ann' side 2"). (None, line) where no seat's name begins it."""
    line = line.strip()
    if line[:1] in ("'", '"'):
        end = line.find(line[0], 1)
        if end > 0:
            key = name_key(line[1:end])
            found = next((name for name in names if name_key(name) == key), None)
            return (found, line[end + 1:].strip()) if found is not None else (None, line)
    words = line.split()
    best = None
    for name in names:
        size = len(name.split())
        if size <= len(words) and name_key(" ".join(words[:size])) == name_key(name) \
                and (best is None or size > len(best.split())):
            best = name
    if best is None:
        return None, line
    return best, " ".join(words[len(best.split()):])


def _unaccented(text: str) -> str:
    """`text` without its accents ("José Álvarez" → "Jose Alvarez"), to say which seat a name
    typed without them meant; never to take it as that seat (two seats may differ only so)."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def typed_name(name: str, names) -> str:
    """A seat's name as it is typed at the prompt: as it is, or in quotes where it could be
    read as another's (a name that begins with a longer seat's name, or with a quote)."""
    key = name_key(name) + " "
    longer = any(name_key(other).startswith(key) for other in names)
    return name if not longer and name[:1] not in ("'", '"') else (f'"{name}"' if "'" in name else f"'{name}'")


def _both_sides(offered: dict) -> bool:
    """Whether some seat may both back and lay one of the bets offered."""
    return any(len({o["side"] for o in bets if o["bet"] == b["bet"]}) > 1 for bets in offered.values() for b in bets)


def _bet_named(text: str, names) -> str | None:
    """The bet of `names` that `text` names: its name or its words, in any case ("Side Odds")."""
    key = "_".join(text.split()).casefold()
    return next((name for name in names if name.casefold() == key), None)


class Terminal:
    """Answers the table's questions (play.actions.Question) by asking the people at the keyboard:
    a function from a question to an action, like a strategy. `ask(prompt) -> str` reads a line
    (EOFError at the end of input); `say(text)` prints. `table` (play.table.Table) is where the
    game stands, for `odds` and `purses`; `stake_size` is the stake Enter offers; with
    `dice_on_enter` false the table's dice (a tape) throw without a question."""

    def __init__(self, machine, solver, ask, say, stake_size=Fraction(1), table=None, dice_on_enter: bool = True,
                 policy: str = "optimal"):
        self.machine = machine
        self.ask_line = ask
        self.say = say
        self.stake_size = Fraction(stake_size)
        self.table = table
        self.dice_on_enter = dice_on_enter
        self.policy = policy
        self.betting = False  # somebody asked (`bets`) to bet before the next throw
        self.at_bets = False  # the question now is the table's bets
        self.entered = False  # Enter at the bets was the caster's throw too
        # the exact figures from where the table stands, by the table's solver under its policy
        # (play.odds): the caster's chance of winning, and of losing (a choice is best for
        # whoever makes it by win less lose)
        self.solver = solver
        self.figures = Odds(machine, solver, table)
        self.win = self.figures.win
        self.question = None  # the question being asked

    def __call__(self, question) -> dict:
        self.question = question  # what `odds` answers for at a choice
        try:
            return getattr(self, f"_{question.ask}")(question)
        finally:
            self.question = None

    # ------------------------------------------------------------------ asking

    def ask(self, prompt: str) -> str:
        """One answer, after any number of help, rules, odds and purses requests."""
        while True:
            try:
                answer = self.ask_line(prompt)
            except EOFError:
                raise SessionOver("the input ended") from None
            except UnreadableAnswer as exc:
                self.say(str(exc))
                continue
            answer = answer.strip()[:MAX_ANSWER]
            word = answer.lower()
            if word in ("?", "h", "help"):
                self.say(HELP)
            elif word == "rules":
                self.say(self.rules())
            elif word == "odds":
                self.say(self.odds())
            elif word == "purses":
                self.say(self.purses())
            elif word in ("quit", "exit", "q"):
                raise SessionOver("quit")
            elif word in ("bet", "bets") and not self.at_bets:
                self.betting = True
                self.say("Bets are taken before the next throw where any may be made.\n" + self.wagers())
            else:
                return answer

    def purses(self) -> str:
        """Every purse, in the ruleset's money, and the wagers up."""
        session = self.table.session
        purses = ", ".join(f"{s.name} {self._money(s.purse)}" for s in session.seats)
        return f"Purses: {purses}.\n{self.wagers()}"

    def wagers(self) -> str:
        """Each seat's wagers up (render.recap.wagers_up)."""
        from ..render.recap import wagers_up

        return wagers_up(self.table.session) if self.table is not None else ""

    def rules(self) -> str:
        ruleset = self.machine.ruleset
        table = ruleset.table
        lines = [ruleset.name, (ruleset.description or "").strip()]
        if self.machine.passing is not None:
            says = self.machine.passing.says()
            lines.append(says[0].upper() + says[1:] + ".")
            if self.machine.passing.by_lot:
                says = self.machine.passing.first_says()
                lines.append(says[0].upper() + says[1:] + ".")
        lines.append("A bank answers every stake." if table.against == "bank" else
                     "Each setter stakes against the caster, who covers what he can"
                     + ("; if he cannot match every stake he forfeits the dice." if table.when_short == "forfeit"
                        else " and refuses the rest."))
        return "\n".join(line for line in lines if line)

    def odds(self, state=None) -> str:
        """The caster's exact chance from where the game stands (`state`, else the question asked
        now, else the table's, so a resumed session's too); at a choice, his chance with each
        value that may be chosen; between games, a new game's (play.odds, in render.chances'
        words)."""
        return standing_words(self.figures.at(state, self.question))

    def choices(self, state, caster: str) -> str:
        """At a choice state: the caster's chance with each value, the chooser's best marked (the
        caster's side takes the most won less lost, an adversary the least)."""
        return choices_words(self.figures.choices(state), caster)

    def yes(self, prompt: str, default: bool = True, bet: str | None = None, pays: str | None = None) -> bool:
        """y or n (Enter: `default`); with `bet`, `? BET` says what the bet put is."""
        while True:
            answer = self.ask(prompt).lower()
            words = answer.split()
            if answer in ("y", "yes") or (answer == "" and default):
                return True
            if answer in ("n", "no") or (answer == "" and not default):
                return False
            if bet is not None and len(words) >= 2 and words[0] == "?":  # "? bet", or the bet by any name
                self.say(self._explain(bet, {"": [{"bet": bet, "pays": pays}]}))
                continue
            self.say(f"Answer y or n (Enter for {'yes' if default else 'no'})"
                     + (", ? bet for what the bet is," if bet is not None else "")
                     + " or ? for help.")

    # ------------------------------------------------------------------ the table's questions

    def _stake(self, question) -> dict:
        f = question.facts
        purse, most = Fraction(f["purse"]), Fraction(f["most"])
        default = min(self.stake_size, most)
        against = "with the bank on" if f["layer"] == "bank" else "against"
        prompt = (f"{question.player}, your stake {against} {f['caster']}? (Enter for {self._money(default)}, "
                  f"0 for none; purse {self._money(purse)}) ")
        while True:
            answer = self.ask(prompt)
            if answer == "":
                return {"action": "stake", "amount": default}
            amount, why = self._typed_money(answer)
            if amount is None or amount < 0:
                self.say(f"{why[0].upper()}{why[1:]}; 0 for none, or ? for help." if why else
                         f"A stake is an amount such as {self._examples()}; 0 for none, or ? for help.")
            elif amount > purse:
                self.say(f"{question.player} has only {self._money(purse)}.")
            elif amount > most:
                self.say(f"{question.player} can stake at most {self._money(most)} here ({f['why_most']}).")
            else:
                return {"action": "stake", "amount": amount}

    def _cover(self, question) -> dict:
        f = question.facts
        if "bet" in f:  # a bet put to the caster
            pays = f.get("pays")
            yes = self.yes(f"{question.player}, {self._put(f)}: do you take it? (? bet says what "
                           f"the bet is) [Y/n] ", bet=f["bet"], pays=pays)
        else:
            yes = self.yes(f"{question.player}, do you cover {f['setter']}'s stake of {self._money(f['amount'])}? [Y/n] ")
        return {"action": "cover" if yes else "refuse"}

    def _accept(self, question) -> dict:
        f = question.facts
        # Enter declines: nobody takes on another's bet by pressing a key
        yes = self.yes(f"{question.player}, {self._put(f)}: do you take it? (? bet says what the "
                       f"bet is) [y/N] ", default=False, bet=f["bet"], pays=f["pays"])
        return {"action": "accept" if yes else "decline"}

    def _put(self, f: dict) -> str:
        """A bet put to a taker, and what he puts up if he takes it: "Ben lays the odds for 2s
        against you (a win pays the backer 4 to 5; you put up 2s 6d)"."""
        maker = f.get("maker", f.get("setter"))
        side = "backs" if f["side"] == "backer" else "lays"
        said = [f"a win pays the backer {f['pays']}"] if f.get("pays") else []
        if "puts_up" in f:  # what the taker could lose: the stake the amount laid stands for, or the odds on it
            said.append(f"you put up {self._money(f['puts_up'])}")
        return (f"{maker} {side} {self._bet_name(f['bet'])} for {self._money(f['amount'])} against you"
                + (f" ({'; '.join(said)})" if said else ""))

    def _typed_money(self, text: str) -> tuple:
        """(the amount `text` says, None) in the file's unit or the ruleset's coin ("2s 6d";
        render.words.money_read), or (None, what was not understood)."""
        from ..render.words import MoneyText, money_typed

        try:
            return money_typed(self.machine.ruleset, text), None
        except MoneyText as exc:
            return None, str(exc)

    def _examples(self) -> str:
        """How an amount is typed here: "2s 6d or 2.50 (in shillings)"."""
        from ..render.words import money_examples

        return money_examples(self.machine.ruleset.table)

    def _money(self, amount) -> str:
        """An amount in the ruleset's money: "2s", "half a guinea" (render.words)."""
        from ..render.words import money_amount

        return money_amount(self.machine.ruleset, Fraction(amount))

    def _bet_name(self, name: str) -> str:
        """A bet as players call it (render.words: the rule file's `called:`, else its name's words)."""
        return self.machine.ruleset.bet_words(name)

    def edge_here(self, name: str):
        """A bet's exact edge against its backer if made now, where the table stands
        (play.odds.Odds.edge_here); None where it cannot be made here."""
        return self.figures.edge_here(name)

    def _bet(self, question) -> dict:
        """Bets before a throw: the table is asked once. With dice thrown on Enter the question
        is the throw's own prompt (Enter: no bets, and the dice roll); with a tape's dice it is
        asked only after someone said `bets`. Answered `NAME BET AMOUNT` (`NAME lay BET AMOUNT`
        to offer to lay a bet that may be backed or laid); `bets` lists what each may bet, with
        its payout, who would take it, its edge and the line that makes it, and the wagers up;
        `? BET` says what it is."""
        offered = question.facts["bets"]
        if not self.dice_on_enter and not self.betting:
            return {"action": "done"}
        caster = question.facts["caster"]
        form = "NAME BET AMOUNT" + (" or NAME lay BET AMOUNT" if _both_sides(offered) else "")
        prompt = (f"{caster} {self._throws()} (a bet first? {form}; bets lists them): press Enter "
                  if self.dice_on_enter else f"Bets before the throw ({form}; bets lists them; Enter: none) ")
        self.at_bets = True
        try:
            while True:
                answer = self.ask(prompt)
                words = answer.split()
                if not words:
                    self.betting = False
                    self.entered = self.dice_on_enter  # that Enter threw the dice
                    return {"action": "done"}
                if words[0].lower() in ("bet", "bets") and len(words) == 1:
                    self.say(self._bets_open(offered) + "\n" + self.wagers())
                elif words[0] == "?" and len(words) >= 2:
                    self.say(self._explain(" ".join(words[1:]), offered))
                else:
                    action = self._bet_action(answer, offered)
                    if action is not None:
                        return action
        finally:
            self.at_bets = False

    def _typed_bet(self, name: str) -> str:
        """A bet's name as it is typed: its words ("side odds" for side_odds)."""
        return name.replace("_", " ")

    def _line(self, seat: str, o: dict, offered: dict, amount: str = "AMOUNT") -> str:
        """The line that makes bet `o` for `seat`: "The Guildmaster lay side 2"."""
        sides = [x["side"] for x in offered[seat] if x["bet"] == o["bet"]]
        lay = "lay " if o["side"] == "layer" and len(sides) > 1 else ""
        return f"{typed_name(seat, offered)} {lay}{self._typed_bet(o['bet'])} {amount}"

    def _bets_open(self, offered: dict) -> str:
        lines = []
        for seat, bets in offered.items():
            lines.append(f"{seat} may bet:")
            for o in bets:
                edge = self.edge_here(o["bet"])
                takers = o.get("takers") or []
                against = "the bank" if o["against"] == "bank" else o["against"] if len(takers) <= 1 else \
                    f"whoever accepts of {', '.join(takers)}"
                # what a win pays the backer: a layer pays it, a backer is paid it
                side = (f"back it against {against}, a win pays you {o['pays']}" if o["side"] == "backer" else
                        f"lay it against {against}, you pay {o['pays']} if it wins")
                # the edge of a wager made now, for the one who makes it: a side bet once the
                # chance is set is worth more or less than `analyse`'s figure, priced from the
                # first throw it may be made
                shown = "" if edge is None else ", no edge either way from here" if edge == 0 else \
                    f", edge from here {float(abs(edge)):.3%} " + \
                    ("against you" if (edge > 0) == (o["side"] == "backer") else "in your favour")
                lines.append(f"  {self._line(seat, o, offered)}: {side}, up to {self._money(o['most'])}{shown}")
        return "\n".join(lines)

    def _explain(self, name: str, offered: dict) -> str:
        name = _bet_named(name, {o["bet"] for bets in offered.values() for o in bets}) or name
        bet = self.machine.ruleset.bets.get(name)
        pays = next((o["pays"] for bets in offered.values() for o in bets if o["bet"] == name), None)
        if bet is None or pays is None:
            names = sorted({self._typed_bet(o["bet"]) for bets in offered.values() for o in bets})
            return f"Open now: {', '.join(names)}."
        # the bet's words first, as a sentence, then the name it is typed by
        words = self._bet_name(name)
        return f"{words[:1].upper()}{words[1:]} ({self._typed_bet(name)}): {(bet.description or name).strip()}; " \
               f"it pays {pays}."

    def _bet_action(self, line: str, offered: dict) -> dict | None:
        """`NAME [back|lay] BET AMOUNT` as an action, or None after saying what is wrong. NAME is
        a seat's name as people write it (`seat_at_start`: any case, any spacing, in quotes where
        wanted), BET the bet's name or its words."""
        from ..diagnostics import did_you_mean

        seat, rest = seat_at_start(line, list(offered))
        words = rest.split()
        if seat is None:
            first = line.split()[0]
            seat0 = next(iter(offered))
            self.say(self._who_is_named(line, offered)
                     + ("Press Enter to throw, or ? for help. A bet" if self.dice_on_enter else "A bet")
                     + f" is NAME BET AMOUNT, such as {self._line(seat0, offered[seat0][0], offered, self._money(2))}; "
                     f"those who may bet now: {', '.join(offered)}{did_you_mean(first, offered)}.")
            return None
        side = SIDE_WORDS.get(words[0].lower()) if words else None
        if side is not None:
            words = words[1:]
        if len(words) < 2:
            o = offered[seat][0]
            self.say(("Press Enter to throw, or ? for help. A bet" if self.dice_on_enter else "A bet")
                     + f" is NAME BET AMOUNT, such as {self._line(seat, o, offered, self._money(2))} (bets lists them)"
                     + ("." if self.dice_on_enter else "; Enter for none."))
            return None
        mine = [o for o in offered[seat]]
        names = {o["bet"] for o in mine}
        # the amount is the last word or more ("side 2", "side 8s 6d", "side half a guinea"): the
        # bet is what the words before it name
        split = next((k for k in range(1, len(words)) if _bet_named(" ".join(words[:-k]), names)), 1)
        typed = " ".join(words[-split:])
        words = words[:-split] + [typed]
        name = _bet_named(" ".join(words[:-1]), names)
        if name is None:
            names = list(dict.fromkeys(self._typed_bet(o["bet"]) for o in mine))
            known = _bet_named(" ".join(words[:-1]), self.machine.bets)
            if known is not None:  # a bet of the game, not open to this seat now: say why, not a near name
                self.say(f"{self._not_open(seat, known)} {seat} may bet {', '.join(names)} now.")
            else:
                self.say(f"{seat} may bet {', '.join(names)} now{did_you_mean(' '.join(words[:-1]), names)}.")
            return None
        options = [o for o in mine if o["bet"] == name]
        option = options[0] if side is None else next((o for o in options if o["side"] == side), None)
        if option is None:
            can = "back" if options[0]["side"] == "backer" else "lay"
            self.say(f"{seat} may only {can} {self._typed_bet(name)} now ({self._line(seat, options[0], offered)}).")
            return None
        amount, why = self._typed_money(words[-1])
        most = Fraction(option["most"])
        if amount is None or amount <= 0:
            self.say(f"{why[0].upper()}{why[1:]}: {self._line(seat, option, offered, self._money(2))}." if why else
                     f"An amount more than 0: {self._line(seat, option, offered, self._money(2))}.")
        elif amount > most:
            doing = f"{'back' if option['side'] == 'backer' else 'lay'} {self._typed_bet(name)}"
            if option.get("covered"):  # what those who would take it can cover binds: say so
                what = f"{option['pays']} on {self._money(amount)}" if option["side"] == "backer" else \
                    f"{self._money(amount)} laid at {option['pays']}"
                self.say(f"Nobody's purse covers {what}: the most anyone who would take it can cover is "
                         f"{self._money(most)} ({self._line(seat, option, offered, self._money(most))}).")
            else:
                why = f" ({option['why_most']})" if option.get("why_most") else ""
                self.say(f"{seat} can {doing} for at most {self._money(most)} now{why}.")
        else:
            action = {"action": "bet", "player": seat, "bet": name, "amount": amount}
            if len(options) > 1:  # a bet that may be backed or laid: which
                action["side"] = option["side"]
            return action
        return None

    def _who_is_named(self, line: str, offered: dict) -> str:
        """Why a bet's line names nobody who may bet now, where the table can say more than the
        list of those who may: a player at the table who may not bet now ("Ann Smith has a side
        bet on the caster up against Ann Jones already: one at a time. "), or the first word of
        two or more names ("ann" at a table of Ann Smith and Ann Jones). "" otherwise."""
        everyone = self.table.players if self.table is not None else list(offered)
        sitting, rest = seat_at_start(line, everyone)
        if sitting is not None:
            words = rest.split()
            known = next((b for k in range(len(words), 0, -1)
                          if (b := _bet_named(" ".join(words[:k]), self.machine.bets)) is not None), None)
            if known is not None:
                return self._not_open(sitting, known) + " "
            return f"{sitting} cannot bet now. "
        bare, _ = seat_at_start(_unaccented(line), [_unaccented(name) for name in everyone])
        if bare is not None:  # "jose alvarez" for José Álvarez: a keyboard without the accents
            name = next(name for name in everyone if _unaccented(name) == bare)
            return f"Did you mean {name}? Type the name with its accents. "
        first = name_key(line.split()[0])
        begun = [name for name in everyone if name_key(name).startswith(first + " ")]
        if len(begun) > 1:
            return f"{line.split()[0]!r} begins the names of {', '.join(begun[:-1])} and {begun[-1]}: write " \
                   f"the whole name. "
        return ""

    def _not_open(self, seat: str, bet: str) -> str:
        """Why `seat` may not make `bet` now: one of its kind is up already (one at a time), or
        not here."""
        up = self.table.session.table_bets.up if self.table is not None else []
        mine = next((w for w in up if w.bet.bet.name == bet and seat in (w.backer, w.layer)), None)
        if mine is not None:
            other = mine.layer if seat == mine.backer else mine.backer
            return f"{seat} has {self._bet_name(bet)} up against {other} already: one at a time."
        return f"{seat} cannot make {self._bet_name(bet)} now."

    def _keep(self, question) -> dict:
        return {"action": "keep" if self.yes(f"{question.player}, you won: keep the dice? [Y/n] ") else "pass"}

    def _choose(self, question) -> dict:
        f = question.facts
        values = f["values"]
        shown = ", ".join(value_words(v) for v in values)
        who = question.player if f["role"] == "caster" else f"the {f['role']}"
        prompt = f"{who}, choose the {f['variable']} ({shown})? "
        if f["variable"] == "recast" and "kept" in f:  # dice landed off, others kept (play.casting)
            ordinals = ("first", "second", "third", "fourth", "fifth")
            off = [k for k, face in enumerate(f["kept"]) if face is None]
            words = self.machine.ruleset.words
            faces_kept = [face for face in f["kept"] if face is not None]
            kept = words.throw_name(*faces_kept) if len(faces_kept) > 1 and len(set(faces_kept)) == 1 else \
                " and ".join(words.faces[face - 1] for face in faces_kept)
            named = " and ".join(ordinals[k] for k in off) + (" die is" if len(off) == 1 else " dice are")
            prompt = (f"{who}, the {named} off and the others show {kept}: recast the off "
                      f"{'die' if len(off) == 1 else 'dice'} alone, or all? ({shown}) ")
        elif f["variable"] == "recast" and "die" in f:  # a die landed off (play.casting)
            face = self.machine.ruleset.words.faces[f["shown"] - 1]
            prompt = (f"{who}, the {'first' if f['die'] == 1 else 'second'} die is off and the other shows "
                      f"{face}: recast the off die alone, or both? ({shown}) ")
        while True:
            answer = " ".join(self.ask(prompt).split()).casefold()
            # the word the prompt shows ("six") or the value itself ("6"), in any case
            match = [v for v in values if answer in (str(v).casefold(), value_words(v).casefold())]
            if match:
                return {"action": "choose", "value": match[0]}
            self.say(f"Choose one of {shown}, or ? for help (odds gives each one's chance).")

    def _throws(self) -> str:
        """What the caster does as a game's dice are thrown, in the file's words (`words: casts:`,
        "is the banker" where the game is not Hazard's), else Hazard's "throws"."""
        return self.machine.ruleset.words.casts or "throws"

    def _throw(self, question) -> dict:
        """The dice thrown when the caster presses Enter (or at once, from a tape)."""
        if self.entered:  # Enter at the bets' prompt threw them
            self.entered = False
            return {"action": "throw"}
        if self.dice_on_enter:
            f = question.facts
            if f["cast"] == "lot":
                again = " again (a tie)" if f["round"] > 1 else ""
                what = f"throws one die for the first cast{again}"
            else:
                from ..render.narrate import dice_named  # "the third die", "the second and third dice"

                what = (f"recasts the {dice_named([d - 1 for d in f['thrown']])} alone" if f.get("thrown") else
                        self._throws() if f["cast"] == "both" else f"recasts the {dice_named([f['die'] - 1])} alone")
            while self.ask(f"{question.player} {what}: press Enter ") != "":
                self.say("Press Enter to throw, or ? for help.")
        return {"action": "throw"}
