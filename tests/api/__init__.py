"""The Python API (hazard_dsl.api) and the commands under it (hazard_dsl.commands)."""
