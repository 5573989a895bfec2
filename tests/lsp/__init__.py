"""Tests of hazard_dsl.lsp."""
