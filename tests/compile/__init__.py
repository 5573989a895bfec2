"""Tests of hazard_dsl.compile."""
