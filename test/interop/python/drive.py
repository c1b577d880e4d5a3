"""Drives edgemcp's Worker with the official MCP Python SDK's client, one endpoint and one
protocol version per run, printing one JSON line per check (see harness.py).

Usage: drive.py <worker origin> <endpoint path> <version> [check names], where version is
2026-07-28 or a 2025 revision (the client's initialize then asks for that revision).
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from mcp.shared.exceptions import MCPError

from harness import (
    ENDPOINT,
    MODERN,
    PREFIX,
    VERSION,
    Recorder,
    Skip,
    abort_status,
    aborted,
    check,
    client,
    everything_only,
    expect,
    expect_error,
    listening_only,
    not_listening_only,
    run,
    text_of,
    until,
)

# --- discovery and lists -------------------------------------------------------------------


@check("connects and agrees on the version")
async def _connects() -> None:
    async with client(Recorder()) as c:
        expect(c.protocol_version == VERSION, f"negotiated {c.protocol_version}")
        expect(c.server_info is not None and bool(c.server_info.name), "no serverInfo")


@check("lists every tool, resource, template and prompt to the end of its cursors")
async def _lists() -> None:
    async with client(Recorder()) as c:
        offered = c.server_capabilities
        for name, fetch, items, capability in [
            ("tools", c.session.list_tools, "tools", offered.tools),
            ("resources", c.session.list_resources, "resources", offered.resources),
            ("templates", c.session.list_resource_templates, "resource_templates", offered.resources),
            ("prompts", c.session.list_prompts, "prompts", offered.prompts),
        ]:
            if capability is None:
                # Not offered: the method is not there (-32601), as the capabilities said.
                await expect_error(fetch(), -32601)
                continue
            seen: list[Any] = []
            cursor: str | None = None
            for _page in range(100):
                page = await fetch(params=types.PaginatedRequestParams(cursor=cursor) if cursor else None)
                seen.extend(getattr(page, items))
                cursor = page.next_cursor
                if not cursor:
                    break
            expect(not cursor, f"{name}: more than 100 pages")
            keys = [getattr(item, "name", None) or getattr(item, "uri", None) or getattr(item, "uri_template", None) for item in seen]
            expect(len(keys) == len(set(keys)), f"{name}: an item listed twice")
            if name == "tools":
                expect(len(seen) > 0, "no tools")


@check("refuses a cursor it never issued with -32602")
async def _bad_cursor() -> None:
    async with client(Recorder()) as c:
        await expect_error(c.session.list_tools(params=types.PaginatedRequestParams(cursor="not-a-cursor")), -32602)


@check("answers an unknown tool with -32602 naming it")
async def _unknown_tool() -> None:
    async with client(Recorder()) as c:
        try:
            result = await c.call_tool("no_such_tool_here", {})
        except MCPError as error:
            expect(error.code == -32602, f"code {error.code}")
            expect("no_such_tool_here" in error.message, error.message)
            return
        expect(result.is_error is True, "an unknown tool succeeded")


async def _connect_and_list(**options: Any) -> None:
    async with client(Recorder(), **options) as c:
        await c.list_tools()


@check("reports a bad bearer token's reason, not a generic error (401, id null)")
async def _bad_token() -> None:
    await expect_error(
        _connect_and_list(token="not-a-real-token"), -32600, "The bearer token is not valid for this MCP endpoint."
    )


@check("gets a readable 413 for a 5 MiB argument (the endpoint takes 1 MiB)")
async def _oversized() -> None:
    async with client(Recorder()) as c:
        tools = (await c.list_tools()).tools
        target = next((t.name for t in tools if "echo" in t.name), tools[0].name)
        try:
            await c.call_tool(target, {"message": "x" * (5 * 1024 * 1024)})
        except MCPError as error:
            expect("1048576-byte limit" in error.message, f"{error.code}: {error.message}")
            return
        raise AssertionError("an oversized body was accepted")


# --- tools of /mcp/everything ---------------------------------------------------------------


@check("calls a tool and reads its text", only=everything_only)
async def _simple() -> None:
    async with client(Recorder()) as c:
        result = await c.call_tool(PREFIX + "test_simple_text", {})
        expect(not result.is_error and text_of(result) != "", text_of(result))


@check("answers invalid arguments with an isError result naming the field", only=everything_only)
async def _invalid_args() -> None:
    async with client(Recorder()) as c:
        result = await c.call_tool(PREFIX + "test_elicitation", {"message": 42})
        expect(result.is_error is True and "message" in text_of(result), text_of(result))


@check("answers elicitation through its callback", only=everything_only)
async def _elicit() -> None:
    rec = Recorder()
    async with client(rec) as c:
        if VERSION == "2025-03-26":
            await expect_error(c.call_tool(PREFIX + "test_elicitation", {"message": "Name?"}), -32021, "elicitation/create")
            expect(rec.elicited == [], "2025-03-26 was sent elicitation/create")
            return
        result = await c.call_tool(PREFIX + "test_elicitation", {"message": "Name?"})
        expect("Ada" in text_of(result) and rec.elicited == ["Name?"], text_of(result))


@check("answers sampling through its callback", only=everything_only)
async def _sample() -> None:
    rec = Recorder()
    async with client(rec) as c:
        result = await c.call_tool(PREFIX + "test_sampling", {"prompt": "Hi"})
        expect(text_of(result) == "LLM response: sampled answer", text_of(result))


@check("answers roots through its callback", only=everything_only)
async def _roots() -> None:
    rec = Recorder()
    async with client(rec) as c:
        result = await c.call_tool(PREFIX + "test_input_required_result_list_roots", {})
        expect("file:///work/project" in text_of(result) and rec.roots >= 1, text_of(result))


@check("is refused -32021 for input it did not declare, and is sent nothing", only=everything_only)
async def _undeclared() -> None:
    rec = Recorder()
    async with client(rec, declare=False) as c:
        for tool, args, method in [
            ("test_elicitation", {"message": "Name?"}, "elicitation/create"),
            ("test_sampling", {"prompt": "Hi"}, "sampling/createMessage"),
            ("test_input_required_result_list_roots", {}, "roots/list"),
        ]:
            await expect_error(c.call_tool(PREFIX + tool, args), -32021, method)
    expect(rec.elicited == [] and rec.sampled == [] and rec.roots == 0, "a callback was called")


@check("receives the tool's log messages", only=everything_only)
async def _logs() -> None:
    rec = Recorder()
    extra = {"log_level": "debug"} if MODERN else {}
    async with client(rec, **extra) as c:
        if not MODERN:
            await c.set_logging_level("debug")
        await c.call_tool(PREFIX + "test_logging_tool", {})
        expect([str(m.data) for m in rec.logs] == ["Logging evaluated"], [m.data for m in rec.logs])


@check("receives progress in order", only=everything_only)
async def _progress() -> None:
    rec = Recorder()
    async with client(rec) as c:
        result = await c.call_tool(PREFIX + "test_tool_with_progress", {}, progress_callback=rec.on_progress)
        expect(not result.is_error, text_of(result))
        expect(len(rec.progress) >= 2 and rec.progress == sorted(rec.progress), rec.progress)


@check("cancels a call by abandoning it (2026: the stream closes; 2025: notifications/cancelled)", only=everything_only)
async def _cancel() -> None:
    label = f"py-{VERSION}-{ENDPOINT.replace('/', '_')}-cancel"
    async with client(Recorder()) as c, client(Recorder()) as watcher:
        with anyio.move_on_after(1.5):
            await c.call_tool(
                PREFIX + "test_slow_counter",
                {"steps": 400, "delayMs": 25, "label": label},
                progress_callback=Recorder().on_progress,
                meta={"progressToken": "slow"},
            )
        await until(lambda: aborted(watcher, label), f"the abort of {label}")


@check("keeps a cancel in its session: another session's call of the same id runs on", only=everything_only)
async def _cancel_scope() -> None:
    if MODERN:
        raise Skip("2026-07-28 cancels by closing the call's stream: there is no id to share")
    # Two sessions of one subject number their requests alike: their slow calls share an id.
    one, two = f"py-{VERSION}-{ENDPOINT.replace('/', '_')}-one", f"py-{VERSION}-{ENDPOINT.replace('/', '_')}-two"
    async with client(Recorder()) as a, client(Recorder()) as b, client(Recorder()) as watcher:
        async with anyio.create_task_group() as tg:

            async def run_b() -> None:
                await b.call_tool(PREFIX + "test_slow_counter", {"steps": 60, "delayMs": 25, "label": two})

            tg.start_soon(run_b)
            with anyio.move_on_after(1.0):
                await a.call_tool(PREFIX + "test_slow_counter", {"steps": 400, "delayMs": 25, "label": one})
            await until(lambda: aborted(watcher, one), f"the abort of {one}")
        expect((await abort_status(watcher, two)).startswith("not aborted"), await abort_status(watcher, two))


@check("listens for list changes and gets its acknowledgement", only=listening_only)
async def _listen() -> None:
    async with client(Recorder()) as c:
        tools = c.server_capabilities.tools
        expect(tools is not None and tools.list_changed, f"listChanged not advertised: {tools}")
        async with c.listen(tools_list_changed=True) as sub:
            expect(sub.honored is not None, "no acknowledgement")


async def _open_listen(c: Any) -> None:
    async with c.listen(tools_list_changed=True):
        pass


@check("is answered -32601 for subscriptions/listen where none is offered", only=not_listening_only)
async def _no_listen() -> None:
    async with client(Recorder()) as c:
        tools = c.server_capabilities.tools
        expect(tools is None or not tools.list_changed, f"listChanged advertised: {tools}")
        await expect_error(_open_listen(c), -32601)


@check("answers a two-round input call (2026: MRTR rounds; 2025: requests on the stream)", only=everything_only)
async def _mrtr() -> None:
    rec = Recorder()
    async with client(rec) as c:
        if VERSION == "2025-03-26":
            await expect_error(c.call_tool(PREFIX + "test_input_required_result_multi_round", {}), -32021)
            return
        result = await c.call_tool(PREFIX + "test_input_required_result_multi_round", {})
        expect(text_of(result) == "Ada likes teal." and len(rec.elicited) == 2, (text_of(result), rec.elicited))


run()
