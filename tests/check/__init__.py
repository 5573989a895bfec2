"""Tests of hazard_dsl.check."""
