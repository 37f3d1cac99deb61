"""One module per request feature, in the reference order (see internal.py)."""
