"""`hazard-dsl serve`: the library, compare and the workbench in a browser, over a JSON API.

A front door beside the command line: it reads the application layer (`hazard_dsl.commands`) and
the checker, decides no rule and computes no figure of its own, and nothing imports it. `app`
builds the Starlette app (pages, headers), `api` the routes under /api/, `files` the folder
boundary, `work` the work done off the event loop in time-bounded processes, `jobs` that work,
`language` the workbench's diagnostics; `static/` the pages, styles, scripts and the editor's
bundle (built from `web/`, see web/README.md).
"""
