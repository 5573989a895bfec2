"""What an editor or a browser needs to know of the rule language: the schema and the language
service."""
