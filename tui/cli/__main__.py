"""``python -m tui.cli``: the same as the ``duplicada`` console script."""

from tui.cli.main import main

main()
