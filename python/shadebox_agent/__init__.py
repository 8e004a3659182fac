"""Python client of the Shadebox agent API (port 3140, base ``/api/agent``). Standard library only."""

from .client import (
    DEFAULT_TIMEOUT,
    AgentApiError,
    AgentApiTimeoutError,
    AgentApiUnreachableError,
    AgentClient,
    SignatureKeyType,
    agent,
    agent_account_id,
    agent_balance,
    agent_call,
    agent_info,
    agent_view,
    default_base_url,
    payload_to_hex,
    request_signature,
)
from .errors import ShadeboxError

__all__ = [
    "DEFAULT_TIMEOUT",
    "AgentApiError",
    "AgentApiTimeoutError",
    "AgentApiUnreachableError",
    "AgentClient",
    "ShadeboxError",
    "SignatureKeyType",
    "agent",
    "agent_account_id",
    "agent_balance",
    "agent_call",
    "agent_info",
    "agent_view",
    "default_base_url",
    "payload_to_hex",
    "request_signature",
]
