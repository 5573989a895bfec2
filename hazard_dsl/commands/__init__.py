"""The application layer: the work of each `hazard-dsl` command, as functions of plain arguments
that return data.

Loading a ruleset by name and compiling it with option texts (`loading`), the dice of a command
(`dice`), games without players (`games`), a session at the table started from its settings and
its logs written, checked, replayed and resumed (`sessions`), and the work behind check, list,
analyse, compare, graph, rules and simulate (a module each; `show` needs only `loading`). The
command line (`hazard_dsl.cli`) parses arguments, calls these and renders what they return; a
notebook or another front end can call them the same way.

The direction of imports: this package reads parse, check, compile, solve, simulate, play and
render, and none of them reads it; it never imports the command line or `hazard_dsl.api`.
A request the caller can correct raises `errors.CommandError` (a `ValueError`), one about a
single setting `errors.SettingError`, which names the setting.
"""
