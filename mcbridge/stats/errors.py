"""The stats store's operator errors: one line each, saying what to do."""

from __future__ import annotations


class StoreError(Exception):
    """A store that cannot be used as asked (bad URL, refused login, newer schema...).

    `retryable`: the store may simply be down (connection refused, timeout): a table starts
    anyway and queues its results; anything else is the operator's to fix first."""

    def __init__(self, message: str, retryable: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable
