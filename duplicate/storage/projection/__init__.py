"""The projector's handlers by family of events (``duplicate.storage.projector``): each
module exports ``HANDLERS`` (kind → handler) and ``MODELS`` (the models it alone writes)."""
