"""The agent API client: the functions of shade-agent-py (``agent``, ``agent_account_id``, ``agent_info``,
``agent_view``, ``agent_call``, ``request_signature``) plus ``agent_balance``, over urllib and json.

Unlike shade-agent-py these functions are synchronous (no httpx, no asyncio). Call them from a thread
(``asyncio.to_thread``) in async code.
"""

from __future__ import annotations

import enum
import json
import os
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Mapping, Optional, Union

from .errors import AgentApiError, AgentApiTimeoutError, AgentApiUnreachableError

#: Seconds a call may take (connect and each read), as shade-agent-py's httpx timeout.
DEFAULT_TIMEOUT = 60.0


class SignatureKeyType(str, enum.Enum):
    """Signature scheme of ``request_signature``: ECDSA is secp256k1, EDDSA is ed25519."""

    ECDSA = "Ecdsa"
    EDDSA = "Eddsa"

    @classmethod
    def from_string(cls, value: str) -> "SignatureKeyType":
        """``"ecdsa"``, ``"ECDSA"``, ``"Ecdsa"`` … → the member; anything else raises ``ValueError``."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            for member in cls:
                if member.value.lower() == value.strip().lower():
                    return member
        raise ValueError(f"unknown signature key type {value!r}: expected 'Ecdsa' or 'Eddsa'")

    def __str__(self) -> str:
        return self.value


def default_base_url(env: Optional[Mapping[str, str]] = None) -> str:
    """``AGENT_API_URL`` when set, else ``http://localhost:{API_PORT or 3140}/api/agent``."""
    env = os.environ if env is None else env
    url = (env.get("AGENT_API_URL") or "").strip()
    if url:
        return url
    port = (env.get("API_PORT") or "").strip() or "3140"
    return f"http://localhost:{port}/api/agent"


def payload_to_hex(payload: Union[str, bytes, bytearray, memoryview]) -> str:
    """Bytes → lowercase hex; a string loses an optional ``0x`` and is otherwise sent as is."""
    if isinstance(payload, (bytes, bytearray, memoryview)):
        return bytes(payload).hex()
    if isinstance(payload, str):
        return payload[2:] if payload[:2] in ("0x", "0X") else payload
    raise TypeError("payload must be a hex string or bytes")


def _contract_body(args: Mapping[str, Any], with_gas: bool) -> dict:
    if not isinstance(args, Mapping):
        raise TypeError("args must be a dict with 'methodName' and 'args'")
    method_name = args.get("methodName", args.get("method_name"))
    if not isinstance(method_name, str) or not method_name:
        raise ValueError("'methodName' is required")
    body: dict = {"methodName": method_name, "args": args.get("args") or {}}
    if with_gas and args.get("gas") is not None:
        body["gas"] = str(args["gas"])
    return body


def _truncate(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


class AgentClient:
    """A client bound to one base URL and timeout."""

    def __init__(self, base_url: Optional[str] = None, timeout: float = DEFAULT_TIMEOUT) -> None:
        if not timeout or timeout <= 0:
            raise ValueError("timeout must be a positive number of seconds")
        self.base_url = (base_url or default_base_url()).rstrip("/")
        self.timeout = timeout

    def agent(self, method: str, args: Any = None) -> Any:
        """``POST {base_url}/{method}`` with ``args`` (default ``{}``) as JSON; returns the parsed answer
        (``None`` for an empty body)."""
        if not isinstance(method, str) or not method:
            raise ValueError("method must be a non-empty string")
        url = f"{self.base_url}/{urllib.parse.quote(method, safe='')}"
        data = json.dumps({} if args is None else args).encode("utf-8")
        request = urllib.request.Request(
            url,
            data=data,
            method="POST",
            headers={"Content-Type": "application/json", "Accept": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                status = response.status
                text = response.read().decode("utf-8", errors="replace")
        except urllib.error.HTTPError as error:
            status = error.code
            try:
                text = error.read().decode("utf-8", errors="replace")
            finally:
                error.close()
            raise self._error(status, text) from None
        except (socket.timeout, TimeoutError) as error:
            raise AgentApiTimeoutError(url, self.timeout) from error
        except urllib.error.URLError as error:
            if isinstance(error.reason, (socket.timeout, TimeoutError)):
                raise AgentApiTimeoutError(url, self.timeout) from error.reason
            cause = error.reason if isinstance(error.reason, BaseException) else error
            raise AgentApiUnreachableError(url, error.reason) from cause
        except (ConnectionError, OSError) as error:
            raise AgentApiUnreachableError(url, error) from error
        if text.strip() == "":
            return None
        try:
            return json.loads(text)
        except ValueError:
            raise AgentApiError(
                status,
                "invalid_response",
                f"agent API answered {status} with a body that is not JSON: {_truncate(text)}",
                body=text,
            ) from None

    @staticmethod
    def _error(status: int, text: str) -> AgentApiError:
        try:
            body: Any = json.loads(text) if text.strip() else None
        except ValueError:
            body = text
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(error, dict):
            return AgentApiError(
                status,
                error.get("code") if isinstance(error.get("code"), str) else f"http_{status}",
                error.get("message") if isinstance(error.get("message"), str) else f"agent API answered {status}",
                field=error.get("field") if isinstance(error.get("field"), str) else None,
                stage=error.get("stage") if isinstance(error.get("stage"), str) else None,
                body=body,
            )
        if isinstance(error, str):
            message = error
        elif text.strip():
            message = _truncate(text.strip())
        else:
            message = f"agent API answered {status}"
        return AgentApiError(status, f"http_{status}", message, body=body)

    def agent_account_id(self) -> dict:
        """``{"accountId": ...}`` as the service sends it, plus ``"account_id"`` (the same value) for code
        written after the shade-agent docs' Python sample."""
        result = self.agent("getAccountId", {})
        if isinstance(result, dict) and "accountId" in result:
            result.setdefault("account_id", result["accountId"])
        return result

    def agent_info(self) -> dict:
        """``get_agent`` for the agent's own account: ``{"codehash", "checksum"?}``. Fails until registered."""
        account_id = self.agent("getAccountId", {})["accountId"]
        return self.agent("view", {"methodName": "get_agent", "args": {"account_id": account_id}})

    def agent_view(self, args: Mapping[str, Any]) -> Any:
        """``args`` = ``{"methodName": ..., "args": {...}}`` (``method_name`` is accepted too)."""
        return self.agent("view", _contract_body(args, with_gas=False))

    def agent_call(self, args: Mapping[str, Any]) -> Any:
        """``args`` = ``{"methodName": ..., "args": {...}, "gas"?: ...}``; gas is sent as a string."""
        return self.agent("call", _contract_body(args, with_gas=True))

    def request_signature(
        self,
        path: str,
        payload: Union[str, bytes, bytearray],
        key_type: Union[SignatureKeyType, str] = SignatureKeyType.ECDSA,
    ) -> dict:
        """``request_signature`` of the agent contract; the answer is NEAR's signature response."""
        kind = SignatureKeyType.from_string(key_type)
        return self.agent(
            "call",
            {
                "methodName": "request_signature",
                "args": {"path": path, "payload": payload_to_hex(payload), "key_type": kind.value},
            },
        )

    def agent_balance(self) -> dict:
        """``{"balance": "<yoctoNEAR>"}``."""
        return self.agent("getBalance", {})


def _default() -> AgentClient:
    return AgentClient(default_base_url())


def agent(method: str, args: Any = None) -> Any:
    return _default().agent(method, args)


def agent_account_id() -> dict:
    return _default().agent_account_id()


def agent_info() -> dict:
    return _default().agent_info()


def agent_view(args: Mapping[str, Any]) -> Any:
    return _default().agent_view(args)


def agent_call(args: Mapping[str, Any]) -> Any:
    return _default().agent_call(args)


def request_signature(
    path: str,
    payload: Union[str, bytes, bytearray],
    key_type: Union[SignatureKeyType, str] = SignatureKeyType.ECDSA,
) -> dict:
    return _default().request_signature(path, payload, key_type)


def agent_balance() -> dict:
    return _default().agent_balance()
