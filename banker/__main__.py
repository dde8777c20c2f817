"""``python -m banker``: the same as the ``banker`` command."""

from banker.cli import main

raise SystemExit(main())
