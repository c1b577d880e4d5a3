"""What drive.py's checks stand on: the run's endpoint and version (from its arguments), a
client of the official MCP Python SDK made for them, callbacks that record what they saw, the
registry of checks, and the runner that prints one JSON line per check:
{"check": ..., "status": "pass" | "fail" | "skip", "detail": ...}.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import httpx2
import mcp.client.session as client_session
import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

ORIGIN, ENDPOINT, VERSION = sys.argv[1], sys.argv[2], sys.argv[3]
MODERN = VERSION == "2026-07-28"
HUB = ENDPOINT == "/mcp"
# Tools of /mcp/everything, reached through the hub under its prefix.
PREFIX = "everything__" if HUB else ""
EVERYTHING = ENDPOINT in ("/mcp/everything", "/mcp")
TOKEN = "token-alice"

if not MODERN:
    # The client's handshake asks for the newest 2025 revision; a test of an older one asks for it.
    client_session.LATEST_HANDSHAKE_VERSION = VERSION


def report(check: str, status: str, detail: Any = None) -> None:
    print(json.dumps({"check": check, "status": status, "detail": detail}), flush=True)


class Recorder:
    """What the client's callbacks saw."""

    def __init__(self) -> None:
        self.logs: list[types.LoggingMessageNotificationParams] = []
        self.progress: list[float] = []
        self.elicited: list[str] = []
        self.sampled: list[str] = []
        self.roots = 0

    async def elicit(self, _ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.elicited.append(params.message)
        # One answer fits every form the fixtures ask for (each reads the fields it named).
        content = {"response": "Ada", "name": "Ada", "text": "Ada", "color": "teal"}
        return types.ElicitResult(action="accept", content=content)

    async def sample(self, _ctx: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        self.sampled.append(str(params.messages[0].content))
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="sampled answer"),
            model="python-test-model",
        )

    async def list_roots(self, _ctx: Any) -> types.ListRootsResult:
        self.roots += 1
        return types.ListRootsResult(roots=[types.Root(uri="file:///work/project", name="project")])

    async def log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append(params)

    async def on_progress(self, progress: float, _total: float | None, _message: str | None) -> None:
        self.progress.append(progress)


def client(rec: Recorder | None = None, *, token: str | None = TOKEN, declare: bool = True, **extra: Any) -> Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    transport = streamable_http_client(ORIGIN + ENDPOINT, http_client=httpx2.AsyncClient(headers=headers, timeout=60))
    callbacks: dict[str, Any] = {}
    if rec is not None and declare:
        callbacks = {
            "elicitation_callback": rec.elicit,
            "sampling_callback": rec.sample,
            "list_roots_callback": rec.list_roots,
        }
    if rec is not None:
        callbacks["logging_callback"] = rec.log
    return Client(
        transport,
        # 2026-07-28 by discovery (server/discover), 2025 by the initialize handshake.
        mode="auto" if MODERN else "legacy",
        client_info=types.Implementation(name="edgemcp-python-interop", version="1"),
        read_timeout_seconds=60,
        **callbacks,
        **extra,
    )


def text_of(result: types.CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, types.TextContent))


CHECKS: list[tuple[str, Callable[[], Awaitable[Any]], Callable[[], str | None]]] = []


def check(name: str, *, only: Callable[[], str | None] = lambda: None):
    """Registers a check; `only` gives the reason it is skipped by design here, or None."""

    def register(fn: Callable[[], Awaitable[Any]]):
        CHECKS.append((name, fn, only))
        return fn

    return register


def everything_only() -> str | None:
    return None if EVERYTHING else "the input, logging and progress fixtures are tools of /mcp/everything"


def modern_only() -> str | None:
    return None if MODERN else "2026-07-28 only: 2025 revisions have no subscriptions/listen"


# The analytics server never changes its lists or sends notifications, so it names no listen
# streams in its definition, and offers none.
LISTENS = ENDPOINT != "/mcp/analytics"


def listening_only() -> str | None:
    return modern_only() or (None if LISTENS else "/mcp/analytics offers no listen streams")


def not_listening_only() -> str | None:
    return modern_only() or ("this endpoint offers listen streams" if LISTENS else None)


def leaf(error: BaseException) -> BaseException:
    """The error a task group wrapped (the client's connection runs in one)."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return error


def expect(condition: bool, detail: Any) -> None:
    if not condition:
        raise AssertionError(detail)


async def expect_error(call: Awaitable[Any], code: int, contains: str = "") -> MCPError:
    try:
        await call
    except BaseException as raised:
        error = leaf(raised)
        if not isinstance(error, MCPError):
            raise
        expect(error.code == code, f"code {error.code} ({error.message}), wanted {code}")
        expect(contains in error.message, f"message {error.message!r} lacks {contains!r}")
        return error
    raise AssertionError(f"no error; wanted {code}")


class Skip(Exception):
    """Raised by a check that does not apply here, with the reason."""


async def abort_status(c: Client, label: str) -> str:
    return text_of(await c.call_tool(PREFIX + "test_abort_status", {"label": label}))


async def until(predicate: Callable[[], Awaitable[bool]], what: str, seconds: float = 20) -> None:
    with anyio.move_on_after(seconds):
        while not await predicate():
            await anyio.sleep(0.1)
        return
    raise AssertionError(f"timed out waiting for {what}")


async def aborted(c: Client, label: str) -> bool:
    return (await abort_status(c, label)).startswith("aborted")


async def run_checks() -> None:
    wanted = set(sys.argv[4:])
    for name, fn, only in CHECKS:
        if wanted and name not in wanted:
            continue
        reason = only()
        if reason:
            report(name, "skip", reason)
            continue
        try:
            with anyio.fail_after(90):
                await fn()
        except Skip as skip:
            report(name, "skip", str(skip))
        except BaseException as raised:  # noqa: BLE001 - every failure is reported, not raised
            error = leaf(raised)
            detail = "".join(traceback.format_exception_only(type(error), error)).strip()
            if isinstance(error, BaseExceptionGroup):
                detail += " | " + " | ".join(repr(e) for e in error.exceptions)
            report(name, "fail", detail[:2000])
        else:
            report(name, "pass")


def run() -> None:
    anyio.run(run_checks)
