"""The command line (hazard_dsl.cli) as a user meets it."""
