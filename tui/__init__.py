"""The Textual application. Implemented in a later issue; the core never imports it."""
