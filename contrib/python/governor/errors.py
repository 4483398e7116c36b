"""Exceptions of the governor binding."""

from __future__ import annotations


class GovernorError(Exception):
    """A libgovernor call failed.

    ``code`` is the library's negative error code (``GOV_E*``), ``name`` its
    symbolic name (``"EALREADY"``) and ``reason`` the text of
    ``gov_strerror()``.
    """

    def __init__(self, code: int, name: str, reason: str, call: str) -> None:
        super().__init__(f"{call}: {reason} ({name})")
        self.code = code
        self.name = name
        self.reason = reason
        self.call = call


class LibraryNotFoundError(OSError):
    """libgovernor could not be found or loaded."""
