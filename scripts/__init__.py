"""Development scripts (not installed): building the default word list, benchmarks helpers."""
