"""One module per grammar family; each exposes ``parse(ctx) -> list[Candidate]``."""
