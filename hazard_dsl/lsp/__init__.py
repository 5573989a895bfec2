"""`hazard-dsl lsp`: the language server, a pygls transport over stdio for the language service
(`hazard_dsl.language.service`). It converts places (UTF-16 code units to code points and back)
and values to LSP's; every answer about the language is the service's."""
