"""RTK: OmniRoute's command-output filters — model, detection, selection, stages, engine.

Qt-free. ``model`` (filters and their loaders), ``detect`` (command type detection),
``select`` (scoped filter choice), ``stages`` (one filter's line pipeline), ``dedup``,
``truncate``, ``engine`` (``process_rtk_text``), ``messages`` (chat bodies), ``trace``,
``tokens`` and ``quirks``; ``patterns`` compiles filter patterns once and finds the lines they
match in a few scans (``LineScanner``), ``zodlike`` reproduces zod 4's issue texts and ``units``
measures UTF-16 lengths fast.
"""
