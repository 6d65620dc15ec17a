"""``python -m sectionrag``: the command-line interface."""

from sectionrag.cli import main

raise SystemExit(main())
