"""The build of the default lexicon from RLA-ES 2.9, COES and wspanish (issue 15); entry point ``scripts/build_default_wordlist.py``."""
