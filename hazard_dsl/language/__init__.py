"""Rule files in an editor: what an editor or the browser workbench asks of a rule file as it is
being written — the checker's problems with their ranges and quick fixes, hover, completion,
definitions and uses of names, symbols, rename (`language.service`, over an index of names,
`language.index`) — and the JSON Schema of rule files (`language.schema`). Plain data out; the
transports (`hazard-dsl lsp`, the workbench's web API) know nothing of the language.
"""
