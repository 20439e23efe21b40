"""Classic (head-to-head) events: TRF files, the FIDE pairing engines behind one adapter,
the pairing rules checked on every pairing, Berger tables, and the classic service
(``service``: a façade over its task modules ``divisions``, ``pairing``, ``results`` and
``reports``, which share ``base``; its values in ``views``)."""
