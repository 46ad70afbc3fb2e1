"""``python -m scorekeeper``: the command line (see :mod:`scorekeeper.cli`)."""

import sys

from scorekeeper.cli import main

if __name__ == "__main__":
    sys.exit(main())
