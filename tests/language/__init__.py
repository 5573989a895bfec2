"""Tests of hazard_dsl.language."""
