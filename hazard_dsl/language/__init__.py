"""What an editor or a browser needs to know of the rule language: the JSON Schema of rule files
(`language.schema`), and the language service (`language.service`, over an index of every name a
rule file defines and uses, `language.index`) that answers what an editor asks of a file as it is
being written — the checker's problems with their ranges and quick fixes, hover, completion,
definitions and uses, symbols, rename — as plain data for its transports (`hazard-dsl lsp`, the
workbench's web API), which know nothing of the language.
"""
