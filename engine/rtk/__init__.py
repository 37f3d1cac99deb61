"""RTK: OmniRoute's command-output filters — model, detection, selection, stages, engine.

Qt-free. ``model`` (filters and their loaders), ``detect`` (command type detection),
``select`` (scoped filter choice), ``stages`` (one filter's line pipeline), ``dedup``,
``truncate``, ``engine`` (``process_rtk_text``), ``messages`` (chat bodies), ``trace``,
``tokens`` and ``quirks``.
"""
