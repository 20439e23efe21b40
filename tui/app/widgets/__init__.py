"""Reusable widgets of the duplicada app."""
