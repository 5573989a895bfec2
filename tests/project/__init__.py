"""The project as a whole: docs, README, citations, published figures, imports."""
