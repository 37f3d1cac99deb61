"""Corpus lab: what a pack or filter change does to a whole corpus of recorded traffic.

``samples`` reads corpora as a stream of samples; ``setup`` loads the rules and filters once
(from folders or a git revision); ``evaluate`` runs one sample; ``aggregate`` folds results into a
report in bounded memory; ``execute`` runs samples on a local process pool or a Dask cluster;
``html`` renders the report as one self-contained page; ``synth`` generates a seeded corpus.
The CLI is ``rulewright eval`` (``engine.cli.eval``).
"""
