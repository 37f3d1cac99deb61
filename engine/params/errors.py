"""The one error the pipeline raises: what the reference would reject, with the JSON path."""

from __future__ import annotations


class ParamsError(ValueError):
    """A payload the reference rejects; ``pointer`` is the RFC 6901 path of the culprit."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.pointer = pointer

    def user_message(self) -> str:
        return f"{self.pointer or '/'}: {self.message}"
