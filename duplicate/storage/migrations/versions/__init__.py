"""The schema revisions, oldest first (``0001`` … ``SCHEMA_HEAD`` of ``duplicate.storage.database``)."""
