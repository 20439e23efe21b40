"""One screen per task (issue 4 §2)."""
