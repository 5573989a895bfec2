"""Tests of hazard_dsl.render."""
