"""Tests of the Python client (``python3 -m unittest discover -s python/tests -v`` from the repository root;
``npm test`` runs them through packages/client/src/python.test.ts).

* ``ClientAgainstDoubleTest`` runs against a TEST DOUBLE: a stdlib http.server started here that implements the
  documented endpoints with canned data and the Shadebox error shape. It exists only for the client's own unit
  tests and proves nothing about the real service.
* ``ClientAgainstServiceTest`` runs against a real agent API when the environment variable
  ``SHADEBOX_AGENT_API_URL`` gives its base URL, e.g.::

      SHADEBOX_AGENT_API_URL=http://127.0.0.1:3140/api/agent python3 -m unittest discover -s python/tests -v

  Without it those tests are skipped (with that reason). ``SHADEBOX_AGENT_API_READY_TIMEOUT`` (seconds,
  default 120) bounds the wait for the service to leave 503 not_ready.
"""

from __future__ import annotations

import json
import os
import re
import socket
import sys
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

import shadebox_agent  # noqa: E402
from shadebox_agent import (  # noqa: E402
    AgentApiError,
    AgentApiTimeoutError,
    AgentApiUnreachableError,
    AgentClient,
    SignatureKeyType,
    default_base_url,
    payload_to_hex,
)

ACCOUNT = "a" * 64
HEX32 = "ab" * 32


class _DoubleHandler(BaseHTTPRequestHandler):
    """The test double (see the module docstring)."""

    seen: list = []

    def log_message(self, format, *args):  # noqa: A002 - keep the test output clean
        pass

    def _json(self, status, body):
        data = json.dumps(body).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            # The timeout test's client has gone before the late answer: nothing to deliver.
            pass

    def _error(self, status, code, message, **extra):
        self._json(status, {"error": {"code": code, "message": message, **extra}})

    def do_GET(self):  # noqa: N802
        self._error(405, "method_not_allowed", "use POST")

    def do_POST(self):  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return self._error(400, "invalid_json", "body is not JSON")
        type(self).seen.append(
            {"path": self.path, "content_type": self.headers.get("Content-Type"), "body": body}
        )
        if not self.path.startswith("/api/agent/"):
            return self._error(404, "not_found", "no such route")
        method = self.path[len("/api/agent/") :]
        b = body or {}
        if method == "getAccountId":
            return self._json(200, {"accountId": ACCOUNT})
        if method == "getBalance":
            return self._json(200, {"balance": "300000000000000000000000"})
        if method == "view":
            if b.get("methodName") == "get_agent":
                if (b.get("args") or {}).get("account_id") != ACCOUNT:
                    return self._error(422, "contract_panic", "Smart contract panicked: no worker found")
                return self._json(200, {"codehash": "c0de"})
            return self._json(200, {"viewed": b.get("methodName"), "args": b.get("args")})
        if method == "call":
            if b.get("methodName") == "request_signature":
                args = b["args"]
                if not re.fullmatch(r"[0-9a-f]{64}", args["payload"]):
                    return self._error(400, "invalid_argument", "payload must be 32 bytes hex", field="args.payload")
                if args["key_type"] == "Eddsa":
                    return self._json(200, {"scheme": "Ed25519", "signature": list(range(64))})
                return self._json(
                    200,
                    {
                        "scheme": "Secp256k1",
                        "big_r": {"affine_point": "03" + "11" * 32},
                        "s": {"scalar": "22" * 32},
                        "recovery_id": 1,
                    },
                )
            if b.get("methodName") == "void_method":
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            return self._json(200, {"called": b.get("methodName"), "args": b.get("args"), "gas": b.get("gas")})
        if method == "notReady":
            return self._error(503, "not_ready", "agent is registering", stage="register")
        if method == "plainText":
            data = b"Internal Server Error"
            self.send_response(500)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return None
        if method == "legacy":
            return self._json(502, {"error": "upstream RPC failed"})
        if method == "slow":
            time.sleep(1.0)
            return self._json(200, {"late": True})
        return self._error(404, "unknown_method", f"{method} is not an agent API method")


class ClientAgainstDoubleTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ThreadingHTTPServer(("127.0.0.1", 0), _DoubleHandler)
        cls.server.daemon_threads = True
        cls.thread = threading.Thread(target=cls.server.serve_forever, daemon=True)
        cls.thread.start()
        cls.url = f"http://127.0.0.1:{cls.server.server_address[1]}/api/agent"

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def setUp(self):
        self.client = AgentClient(self.url, timeout=5)

    def last(self):
        return _DoubleHandler.seen[-1]

    def test_agent_account_id(self):
        result = self.client.agent_account_id()
        self.assertEqual(result["accountId"], ACCOUNT)
        self.assertEqual(result["account_id"], ACCOUNT)
        self.assertEqual(self.last()["path"], "/api/agent/getAccountId")
        self.assertEqual(self.last()["content_type"], "application/json")
        self.assertEqual(self.last()["body"], {})

    def test_agent_info(self):
        self.assertEqual(self.client.agent_info(), {"codehash": "c0de"})
        self.assertEqual(self.last()["path"], "/api/agent/view")
        self.assertEqual(self.last()["body"], {"methodName": "get_agent", "args": {"account_id": ACCOUNT}})

    def test_agent_view_and_call(self):
        self.assertEqual(
            self.client.agent_view({"methodName": "m", "args": {"x": 1}}), {"viewed": "m", "args": {"x": 1}}
        )
        self.assertEqual(self.last()["body"], {"methodName": "m", "args": {"x": 1}})
        self.client.agent_view({"method_name": "m"})
        self.assertEqual(self.last()["body"], {"methodName": "m", "args": {}})
        result = self.client.agent_call({"methodName": "set", "args": {"v": "a"}, "gas": 30000000000000})
        self.assertEqual(result, {"called": "set", "args": {"v": "a"}, "gas": "30000000000000"})
        self.client.agent_call({"methodName": "set", "args": {}})
        self.assertEqual(self.last()["body"], {"methodName": "set", "args": {}})
        with self.assertRaises(ValueError):
            self.client.agent_call({"args": {}})

    def test_empty_body_is_none(self):
        self.assertIsNone(self.client.agent_call({"methodName": "void_method"}))

    def test_agent_balance(self):
        self.assertEqual(self.client.agent_balance(), {"balance": "300000000000000000000000"})
        self.assertEqual(self.last()["path"], "/api/agent/getBalance")

    def test_request_signature(self):
        ecdsa = self.client.request_signature("ethereum-1", HEX32)
        self.assertEqual(ecdsa["scheme"], "Secp256k1")
        self.assertEqual(
            self.last()["body"],
            {"methodName": "request_signature", "args": {"path": "ethereum-1", "payload": HEX32, "key_type": "Ecdsa"}},
        )
        eddsa = self.client.request_signature("solana-1", bytes.fromhex(HEX32), "eddsa")
        self.assertEqual(eddsa["scheme"], "Ed25519")
        self.assertEqual(len(eddsa["signature"]), 64)
        self.assertEqual(self.last()["body"]["args"], {"path": "solana-1", "payload": HEX32, "key_type": "Eddsa"})
        self.client.request_signature("p", "0x" + HEX32, SignatureKeyType.ECDSA)
        self.assertEqual(self.last()["body"]["args"]["payload"], HEX32)
        with self.assertRaises(ValueError):
            self.client.request_signature("p", HEX32, "schnorr")

    def test_signature_key_type(self):
        self.assertIs(SignatureKeyType.from_string("ECDSA"), SignatureKeyType.ECDSA)
        self.assertIs(SignatureKeyType.from_string("eddsa"), SignatureKeyType.EDDSA)
        self.assertIs(SignatureKeyType.from_string("Eddsa"), SignatureKeyType.EDDSA)
        self.assertEqual(SignatureKeyType.ECDSA.value, "Ecdsa")
        self.assertEqual(str(SignatureKeyType.EDDSA), "Eddsa")
        with self.assertRaises(ValueError):
            SignatureKeyType.from_string("rsa")

    def test_payload_to_hex(self):
        self.assertEqual(payload_to_hex(b"\x00\x01\xfe"), "0001fe")
        self.assertEqual(payload_to_hex("0xABCD"), "ABCD")
        with self.assertRaises(TypeError):
            payload_to_hex(12)

    def test_error_fields(self):
        with self.assertRaises(AgentApiError) as ctx:
            self.client.request_signature("p", "zz")
        e = ctx.exception
        self.assertEqual((e.status, e.code, e.message, e.field), (400, "invalid_argument", "payload must be 32 bytes hex", "args.payload"))
        self.assertIsNone(e.stage)
        self.assertIn("HTTP 400", str(e))

    def test_contract_panic_and_not_ready(self):
        with self.assertRaises(AgentApiError) as ctx:
            self.client.agent_view({"methodName": "get_agent", "args": {"account_id": "x"}})
        self.assertEqual((ctx.exception.status, ctx.exception.code), (422, "contract_panic"))
        with self.assertRaises(AgentApiError) as ctx:
            self.client.agent("notReady")
        self.assertEqual((ctx.exception.status, ctx.exception.code, ctx.exception.stage), (503, "not_ready", "register"))

    def test_unknown_method_is_quoted(self):
        with self.assertRaises(AgentApiError) as ctx:
            self.client.agent("a/b")
        self.assertEqual(ctx.exception.status, 404)
        self.assertEqual(self.last()["path"], "/api/agent/a%2Fb")

    def test_other_error_bodies(self):
        with self.assertRaises(AgentApiError) as ctx:
            self.client.agent("plainText")
        self.assertEqual((ctx.exception.status, ctx.exception.code, ctx.exception.message), (500, "http_500", "Internal Server Error"))
        with self.assertRaises(AgentApiError) as ctx:
            self.client.agent("legacy")
        self.assertEqual((ctx.exception.status, ctx.exception.code, ctx.exception.message), (502, "http_502", "upstream RPC failed"))

    def test_timeout(self):
        client = AgentClient(self.url, timeout=0.2)
        started = time.monotonic()
        with self.assertRaises(AgentApiTimeoutError) as ctx:
            client.agent("slow")
        self.assertLess(time.monotonic() - started, 0.9)
        self.assertIsNone(ctx.exception.status)
        self.assertEqual(ctx.exception.code, "timeout")
        self.assertIsInstance(ctx.exception, AgentApiError)

    def test_unreachable(self):
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        with self.assertRaises(AgentApiUnreachableError) as ctx:
            AgentClient(f"http://127.0.0.1:{port}/api/agent", timeout=5).agent_account_id()
        self.assertEqual(ctx.exception.code, "unreachable")
        self.assertIsInstance(ctx.exception, AgentApiError)
        self.assertIsInstance(ctx.exception.__cause__, OSError)
        self.assertIn("Caused by:", ctx.exception.describe())

    def test_bad_timeout(self):
        with self.assertRaises(ValueError):
            AgentClient(self.url, timeout=0)

    def test_default_base_url(self):
        self.assertEqual(default_base_url({}), "http://localhost:3140/api/agent")
        self.assertEqual(default_base_url({"API_PORT": "4000"}), "http://localhost:4000/api/agent")
        self.assertEqual(
            default_base_url({"AGENT_API_URL": "http://shade-agent-api:3140/api/agent", "API_PORT": "4000"}),
            "http://shade-agent-api:3140/api/agent",
        )

    def test_module_functions_read_the_environment(self):
        saved = os.environ.get("AGENT_API_URL")
        os.environ["AGENT_API_URL"] = self.url
        try:
            self.assertEqual(shadebox_agent.agent_account_id()["accountId"], ACCOUNT)
            self.assertEqual(shadebox_agent.agent_balance()["balance"], "300000000000000000000000")
            self.assertEqual(shadebox_agent.agent_info(), {"codehash": "c0de"})
            self.assertEqual(shadebox_agent.agent_view({"methodName": "m"})["viewed"], "m")
            self.assertEqual(shadebox_agent.agent_call({"methodName": "c"})["called"], "c")
            self.assertEqual(shadebox_agent.request_signature("p", HEX32)["scheme"], "Secp256k1")
            self.assertEqual(shadebox_agent.agent("getAccountId"), {"accountId": ACCOUNT})
        finally:
            if saved is None:
                del os.environ["AGENT_API_URL"]
            else:
                os.environ["AGENT_API_URL"] = saved


SERVICE_URL = os.environ.get("SHADEBOX_AGENT_API_URL", "").strip()


@unittest.skipUnless(
    SERVICE_URL, "SHADEBOX_AGENT_API_URL is not set: no real agent API to test against (set it to its base URL)"
)
class ClientAgainstServiceTest(unittest.TestCase):
    """Against the real service. Makes transactions (request_signature) on whatever chain it runs on."""

    @classmethod
    def setUpClass(cls):
        cls.client = AgentClient(SERVICE_URL, timeout=120)
        deadline = time.monotonic() + float(os.environ.get("SHADEBOX_AGENT_API_READY_TIMEOUT", "120"))
        while True:
            try:
                cls.client.agent_info()
                return
            except AgentApiError as error:
                if error.status not in (None, 503, 422) or time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def test_account_id(self):
        result = self.client.agent_account_id()
        self.assertRegex(result["accountId"], r"^[0-9a-f]{64}$")

    def test_balance(self):
        self.assertRegex(self.client.agent_balance()["balance"], r"^[0-9]+$")

    def test_agent_info(self):
        info = self.client.agent_info()
        self.assertIsInstance(info.get("codehash"), str)

    def test_request_signature_ecdsa(self):
        sig = self.client.request_signature("ethereum-1", HEX32)
        self.assertEqual(sig["scheme"], "Secp256k1")
        self.assertRegex(sig["big_r"]["affine_point"], r"^0[23][0-9a-fA-F]{64}$")
        self.assertRegex(sig["s"]["scalar"], r"^[0-9a-fA-F]{64}$")
        self.assertIn(sig["recovery_id"], (0, 1))

    def test_request_signature_eddsa(self):
        sig = self.client.request_signature("solana-1", bytes.fromhex(HEX32), SignatureKeyType.EDDSA)
        self.assertEqual(sig["scheme"], "Ed25519")
        self.assertEqual(len(sig["signature"]), 64)
        self.assertTrue(all(isinstance(b, int) and 0 <= b <= 255 for b in sig["signature"]))

    def test_short_eddsa_message(self):
        # The README's old example: 7 bytes, below the signer's 32-byte minimum for EdDSA; nothing is paid.
        with self.assertRaises(AgentApiError) as ctx:
            self.client.request_signature("solana-1", b"message", SignatureKeyType.EDDSA)
        self.assertEqual(ctx.exception.status, 400)
        self.assertEqual(ctx.exception.code, "invalid_field")
        self.assertEqual(ctx.exception.field, "args.payload")
        self.assertIn("32 to 1232 bytes", ctx.exception.message)
        self.assertIn("got 7 bytes", ctx.exception.message)

    def test_unknown_method(self):
        with self.assertRaises(AgentApiError) as ctx:
            self.client.agent("noSuchMethod")
        self.assertEqual(ctx.exception.status, 404)
        self.assertTrue(ctx.exception.code)

    def test_bad_payload(self):
        with self.assertRaises(AgentApiError) as ctx:
            self.client.request_signature("p", "not hex")
        self.assertIn(ctx.exception.status, (400, 422))
        self.assertTrue(ctx.exception.message)


if __name__ == "__main__":
    unittest.main()
