"""``python -m engine`` behaves like the ``rulewright`` command."""

import sys

from engine.cli import main

sys.exit(main())
