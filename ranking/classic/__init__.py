"""Classic (head-to-head) events: TRF files, the FIDE pairing engines behind one adapter, the pairing rules checked on every pairing, Berger tables."""
