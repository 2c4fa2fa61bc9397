"""``python -m indigo``: the ``indigo`` command line."""

import sys

from indigo.cli import main

if __name__ == "__main__":
    sys.exit(main())
