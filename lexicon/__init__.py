"""Alphabet, compiled lexicon and move generator for Spanish duplicate Scrabble."""
