"""Tests of hazard_dsl.play."""
