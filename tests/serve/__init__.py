"""Tests of hazard_dsl.serve."""
