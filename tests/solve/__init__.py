"""Tests of hazard_dsl.solve."""
