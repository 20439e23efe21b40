"""EloDI ratings (FISE rules, section V). Implemented in a later issue."""
