"""Duplicate Scrabble by the FISE rules, in rooms by layer (each imports only those below):
``publishing`` > ``service`` > ``storage`` > ``record`` > ``prepared`` > ``rules``; the few
modules at this level (limits, texts, labels, files, the simulator) belong to no room.
``docs/architecture.md`` draws them."""
