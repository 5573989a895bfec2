"""Tests of hazard_dsl.cache."""
