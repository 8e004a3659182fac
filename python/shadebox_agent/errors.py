"""Errors of the client, mirroring the TypeScript ones (``@shadebox/errors``, ``@shadebox/client``).

Every error is a ``ShadeboxError``: a short ``message``, ``details`` (a dict with the facts, the same keys as
the TypeScript ``details``), an optional ``docs_path`` into the project's docs, and the error that led to it
as ``__cause__`` (``raise … from cause``, or ``cause=`` when constructing).
"""

from __future__ import annotations

from typing import Any, Mapping, Optional


class ShadeboxError(Exception):
    """The base of every Shadebox error (the TypeScript ``ShadeboxError``)."""

    def __init__(
        self,
        message: str,
        details: Optional[Mapping[str, Any]] = None,
        docs_path: Optional[str] = None,
        cause: Optional[BaseException] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict = dict(details or {})
        self.docs_path = docs_path
        if cause is not None:
            self.__cause__ = cause

    @property
    def short_message(self) -> str:
        """The message without docs path or causes (the TypeScript ``shortMessage``)."""
        return self.message

    def describe(self) -> str:
        """The message for a person: the message, then ``Docs:`` and each cause on its own line."""
        lines = [self.message]
        if self.docs_path:
            lines.append(f"Docs: {self.docs_path}")
        seen = {id(self)}
        cause = self.__cause__
        while cause is not None and id(cause) not in seen:
            seen.add(id(cause))
            lines.append(f"Caused by: {getattr(cause, 'message', None) or cause}")
            cause = cause.__cause__
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """What the TypeScript ``toJSON`` gives: name, message, details and docsPath (when set)."""
        out = {"name": type(self).__name__, "message": self.message, "details": dict(self.details)}
        if self.docs_path is not None:
            out["docsPath"] = self.docs_path
        return out


class AgentApiError(ShadeboxError):
    """The service answered with a non-2xx status (or an unusable body).

    ``status``, ``code``, ``message``, ``field`` and ``stage`` come from the body
    ``{"error": {"code", "message", "field"?, "stage"?}}``; for another body ``code`` is ``http_<status>``.
    ``details`` holds ``status``, ``code`` and, when present, ``field`` and ``stage``.
    """

    def __init__(
        self,
        status: Optional[int],
        code: str,
        message: str,
        field: Optional[str] = None,
        stage: Optional[str] = None,
        body: Any = None,
        details: Optional[Mapping[str, Any]] = None,
        docs_path: Optional[str] = "docs/agent-api.md#errors",
        cause: Optional[BaseException] = None,
    ) -> None:
        if details is None:
            details = {"status": status, "code": code}
            if field is not None:
                details["field"] = field
            if stage is not None:
                details["stage"] = stage
        super().__init__(message, details, docs_path, cause)
        self.status = status
        self.code = code
        self.field = field
        self.stage = stage
        self.body = body

    def __str__(self) -> str:
        parts = [f"{self.code}: {self.message}"]
        if self.status is not None:
            parts.insert(0, f"HTTP {self.status}")
        if self.field:
            parts.append(f"(field {self.field})")
        if self.stage:
            parts.append(f"(stage {self.stage})")
        return " ".join(parts)


class AgentApiTimeoutError(AgentApiError):
    """No answer within the timeout. ``status`` is None, ``code`` is ``timeout``; ``details`` is
    ``{"url", "timeoutMs"}`` as in TypeScript."""

    def __init__(self, url: str, timeout: float, cause: Optional[BaseException] = None) -> None:
        timeout_ms = timeout * 1000
        super().__init__(
            None,
            "timeout",
            f"agent API did not answer within {timeout} s: POST {url}",
            details={"url": url, "timeoutMs": timeout_ms},
            docs_path=None,
            cause=cause,
        )
        self.url = url
        self.timeout = timeout
        self.timeout_ms = timeout_ms


class AgentApiUnreachableError(AgentApiError):
    """The service could not be reached. ``status`` is None, ``code`` is ``unreachable``; ``details`` is
    ``{"url"}`` and the OS error is ``reason`` (and ``__cause__`` when it is an exception)."""

    def __init__(self, url: str, reason: object, cause: Optional[BaseException] = None) -> None:
        if cause is None and isinstance(reason, BaseException):
            cause = reason
        super().__init__(
            None,
            "unreachable",
            f"agent API unreachable at POST {url} ({reason}); is the service running?",
            details={"url": url},
            docs_path="docs/clients.md",
            cause=cause,
        )
        self.url = url
        self.reason = reason
