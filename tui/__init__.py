"""The front ends: the Textual app (``tui.app``) and the command line (``tui.cli``).

Both only ask the tournament service and display what it returns; the core packages
(``lexicon``, ``duplicate``, ``ranking``) never import this one.
"""
