"""Play at one terminal: the people at the table answer the session engine's questions.

This is one front end over the engine's events and questions (play.session.Decider); a web
table would be another. Every prompt takes `?` (help), `rules`, `odds`, `purses` and `quit`
besides its own answer; bad input gets a short message and the question again.
"""

from __future__ import annotations

from fractions import Fraction

from ..compile.machine import CHOICE, END, maximises
from ..parse.numbers import exact_amount
from ..play.session import Decider, Seat
from ..play.wagers import money

HELP = ("At any question: ? for this help, rules for the rules of the table, odds for the caster's chance "
        "from here (at a choice, with each value), purses for every purse, quit to end the session.")
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


def chance_words(p: Fraction) -> str:
    """"1 time in 3", "244 times in 495 (49.29%)": a person's words for an exact chance."""
    p = Fraction(p)
    if p == 0:
        return "never"
    if p == 1:
        return "for certain"
    if p.numerator == 1:
        return f"1 time in {p.denominator:,}"
    if p.denominator < 10**6:
        return f"{p.numerator:,} times in {p.denominator:,} ({float(p):.2%})"
    return f"about {float(p):.2%} of the time"


class Terminal(Decider):
    """Asks the people at the keyboard. `ask(prompt) -> str` reads a line (EOFError at the end of
    input); `say(text)` prints."""

    def __init__(self, machine, solver, ask, say, fallback: Decider):
        super().__init__(fallback.stake_size, fallback.strategy, fallback.chooser)
        from ..solve.markov import ONE, ZERO

        self.machine = machine
        self.ask_line = ask
        self.say = say
        # the exact solver on the compiled machine, under the table's policy: the caster's chance
        # of winning, and of losing (a choice is best for whoever makes it by win less lose)
        self.win = solver.backward(lambda s: ONE if s.result == "win" else ZERO)
        self.lose = solver.backward(lambda s: ONE if s.result == "lose" else ZERO)
        self.session = None  # its `state` is where the game stands, for `odds`

    # ------------------------------------------------------------------ asking

    def ask(self, prompt: str, session) -> str:
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
                self.say(", ".join(f"{s.name} {money(s.purse)}" for s in session.seats))
            elif word in ("quit", "exit", "q"):
                raise SessionOver("quit")
            else:
                return answer

    def rules(self) -> str:
        ruleset = self.machine.ruleset
        table = ruleset.table
        lines = [ruleset.name, (ruleset.description or "").strip()]
        if self.machine.passing is not None:
            says = self.machine.passing.says()
            lines.append(says[0].upper() + says[1:] + ".")
        lines.append("A bank answers every stake." if table.against == "bank" else
                     "Each setter stakes against the caster, who covers what he can"
                     + ("; if he cannot match every stake he forfeits the dice." if table.when_short == "forfeit"
                        else " and refuses the rest."))
        return "\n".join(line for line in lines if line)

    def odds(self) -> str:
        """The caster's exact chance from where the game stands (the session's state, so a resumed
        session's too); at a choice, his chance with each value that may be chosen; between games,
        a new game's."""
        session = self.session
        caster = session.seats[session.caster].name if session is not None else "the caster"
        state = session.state if session is not None else None
        if state is None or state.kind == END:
            start = self.machine.states[self.machine.start.target]
            if start.kind == CHOICE:
                return f"A new game: {self.choices(start, caster)}"
            return f"A new game: {caster} wins {chance_words(self.win[start.index])}."
        if state.kind == CHOICE:
            return self.choices(state, caster)
        return f"From here {caster} wins {chance_words(self.win[state.index])}."

    def choices(self, state, caster: str) -> str:
        """At a choice state: the caster's chance with each value, the chooser's best marked (the
        caster's side takes the most won less lost, an adversary the least)."""
        targets = [(value, step.target) for value, step in state.alternatives]
        worth = [self.win[t] - self.lose[t] for _, t in targets]
        best = max(worth) if maximises(state.chooser) else min(worth)
        whose = "the best" if maximises(state.chooser) else f"the {state.chooser}'s best"
        lines = [f"{caster}'s chance with each {state.variable}:"]
        for (value, target), w in zip(targets, worth):
            mark = f", {whose}" if w == best and len(set(worth)) > 1 else ""
            lines.append(f"  {value}: wins {chance_words(self.win[target])}{mark}")
        return "\n".join(lines)

    def yes(self, prompt: str, session) -> bool:
        while True:
            answer = self.ask(prompt, session).lower()
            if answer in ("", "y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self.say("Answer y or n (Enter for yes), or ? for help.")

    # ------------------------------------------------------------------ the Decider's questions

    def stake(self, setter: Seat, caster: Seat, session) -> Fraction:
        default = min(self.stake_size, setter.purse)
        against = "with the bank on" if session.against == "bank" else "against"
        prompt = (f"{setter.name}, your stake {against} {caster.name}? (Enter for {money(default)}, 0 for none; "
                  f"purse {money(setter.purse)}) ")
        while True:
            answer = self.ask(prompt, session)
            if answer == "":
                return default
            amount = exact_amount(answer, percent=False)
            if amount is None or amount < 0:
                self.say("A stake is an amount such as 2 or 1.50 (0 for none), or ? for help.")
            elif amount > setter.purse:
                self.say(f"{setter.name} has only {money(setter.purse)}.")
            else:
                return amount

    def cover(self, caster: Seat, setter: Seat, amount: Fraction, session) -> bool:
        return self.yes(f"{caster.name}, do you cover {setter.name}'s {money(amount)}? [Y/n] ", session)

    def keep_after_win(self, caster: Seat, session) -> bool:
        return self.yes(f"{caster.name}, you won: keep the dice? [Y/n] ", session)

    def choose(self, state, session) -> int:
        values = [value for value, _ in state.alternatives]
        shown = ", ".join(map(str, values))
        who = session.seats[session.caster].name if state.chooser == "caster" else f"the {state.chooser}"
        question = f"{who}, choose {state.variable} ({shown})? "
        if state.variable == "recast" and state.die is not None:  # a die landed off (play.casting)
            face = self.machine.ruleset.words.faces[state.shown - 1]
            question = (f"{who}, the {'first' if state.die == 1 else 'second'} die is off and the other shows "
                        f"{face}: recast the off die alone, or both? ({shown}) ")
        while True:
            answer = self.ask(question, session)
            match = [k for k, v in enumerate(values) if str(v) == answer]
            if match:
                return match[0]
            self.say(f"Choose one of {shown}, or ? for help.")


class DiceOnEnter:
    """The dice thrown when the caster presses Enter."""

    def __init__(self, dice, terminal: Terminal):
        self.dice = dice
        self.terminal = terminal

    def _enter(self, what: str) -> None:
        session = self.terminal.session
        caster = session.seats[session.caster].name
        while self.terminal.ask(f"{caster} {what}: press Enter ", session) != "":
            self.terminal.say("Press Enter to throw, or ? for help.")

    def throw(self):
        self._enter("throws")
        return self.dice.throw()

    def cast(self, chance):
        self._enter("throws")
        return self.dice.cast(chance)

    def cast_die(self, die: int, chance):
        self._enter(f"recasts the {'first' if die == 1 else 'second'} die alone")
        return self.dice.cast_die(die, chance)
