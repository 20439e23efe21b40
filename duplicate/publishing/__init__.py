"""Publishing: the results as HTML pages, PDF documents, CSV/XLSX sheets, Eliot XML and the
replay pages, all from the service's results (``results.TournamentResults``).

The top room of ``duplicate``: it may import the service; nothing below imports it.
"""
