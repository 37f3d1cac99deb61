"""Entry point of the desktop bundle: the ``rulewright`` command, or the validation helper.

The IDE starts its helper process as ``<bundle>/rulewright --rulewright-worker`` because a
frozen app has no ``python -m`` (see ``app.workers.ProcessWorker``).
"""

import sys

if __name__ == "__main__":
    if sys.argv[1:2] == ["--rulewright-worker"]:
        from engine.workspace.worker import serve

        sys.exit(serve())
    from engine.cli import main

    sys.exit(main())
