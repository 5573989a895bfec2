"""Tests of hazard_dsl.parse."""
