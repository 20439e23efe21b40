"""The ``duplicada`` command line: one click group (``main``) whose commands live one
module per command group and load only when used; ``options`` declares the shared
options once. Everything it does goes through the tournament service."""
