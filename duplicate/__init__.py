"""Duplicate game engine: board, notation, scoring, rack rules and rounds (FISE rules)."""
