"""The application layer: the work of each `hazard-dsl` command, as functions of plain arguments
that return data.

Loading a ruleset by name and compiling it with option values (`loading`), the dice of a command
(`dice`), games without players (`games`), a session at the table started from its settings and
its logs written, checked, replayed and resumed (`sessions`), and the work behind check, list,
analyse, compare, graph, rules and simulate (a module each; `show` needs only `loading`). The
command line (`hazard_dsl.cli`) parses arguments, calls these and renders what they return; a
notebook or another front end can call them the same way.

Each command takes a request (`requests`: one frozen value per command, typed fields — option
values, money as Fractions, one bettor's BetOrders, seats' plans as {seat: {bet: amount}},
tapes as tuples of throws): `analyse.analyse_request`, `risk_request` and `staking.Asked`,
`compare.compare_request`, `graph.graph_request`, `rules.rules_request`, `check.check_request`,
`games.games_request`, `simulate.simulate_request`, `sessions.request_settings`,
`listing.list_request`, `loading.show_request`, `schema.schema_request`. The command
line builds them from its flags (`cli.requests`), the Python API from keywords, the web API
from JSON (`serve.requests`); this package reads no command-line text, save
`loading.build_machine`, options as texts, for the web tables (`sessions.table`) and the tests.

The direction of imports: this package reads parse, check, compile, solve, simulate, play and
render, and none of them reads it; it never imports the command line or `hazard_dsl.api`.
A request the caller can correct raises `errors.CommandError` (a `ValueError`); one about an
argument an `hazard_dsl.errors.ArgumentError` naming the request's field (`errors.SettingError`
is one), which each front end words: the command line with its flag, the API with its keyword.
"""
