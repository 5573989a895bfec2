"""Tests of hazard_dsl.simulate."""
