"""The client's errors mirror the TypeScript ones: a ShadeboxError base with message, details, docs_path and
the cause as __cause__."""

import unittest

from shadebox_agent import (
    AgentApiError,
    AgentApiTimeoutError,
    AgentApiUnreachableError,
    ShadeboxError,
)


class ShadeboxErrorTest(unittest.TestCase):
    def test_base_keeps_message_details_docs_path_and_cause(self):
        root = OSError("disk full")
        error = ShadeboxError("no such thing x1", {"id": "x1"}, "docs/things.md#ids", cause=root)
        self.assertEqual((error.message, error.short_message, str(error)), ("no such thing x1",) * 3)
        self.assertEqual(error.details, {"id": "x1"})
        self.assertEqual(error.docs_path, "docs/things.md#ids")
        self.assertIs(error.__cause__, root)
        self.assertEqual(error.describe(), "no such thing x1\nDocs: docs/things.md#ids\nCaused by: disk full")
        self.assertEqual(
            error.to_dict(),
            {"name": "ShadeboxError", "message": "no such thing x1", "details": {"id": "x1"}, "docsPath": "docs/things.md#ids"},
        )
        self.assertEqual(ShadeboxError("bare").details, {})

    def test_agent_api_error_details_match_typescript(self):
        error = AgentApiError(503, "not_ready", "the agent is booting (stage fund)", stage="fund", body={})
        self.assertIsInstance(error, ShadeboxError)
        self.assertEqual(error.details, {"status": 503, "code": "not_ready", "stage": "fund"})
        self.assertEqual(error.docs_path, "docs/agent-api.md#errors")
        self.assertEqual(error.message, "the agent is booting (stage fund)")

    def test_timeout_and_unreachable_details(self):
        timeout = AgentApiTimeoutError("http://x/api/agent/call", 0.25)
        self.assertEqual(timeout.details, {"url": "http://x/api/agent/call", "timeoutMs": 250.0})
        self.assertEqual(timeout.timeout_ms, 250.0)
        refused = ConnectionRefusedError(111, "Connection refused")
        unreachable = AgentApiUnreachableError("http://x/api/agent/call", refused)
        self.assertEqual(unreachable.details, {"url": "http://x/api/agent/call"})
        self.assertIs(unreachable.__cause__, refused)


if __name__ == "__main__":
    unittest.main()
