"""The record: the typed events of the log, their hash chain, the export and the independent checker."""
