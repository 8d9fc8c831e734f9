"""A cell's round trip in several kernels, side by side (issue 24's table): execute_request to
execute_reply, as jupyter_client sees it, each kernel started once and warmed by one cell.

    python3 kernel-latency.py CWD RUNS SESSION_CELLS ROUNDS KERNEL [KERNEL ...]

- the table's three cells, RUNS times each, kernels interleaved run by run (the machine is shared:
  interleaving spreads its noise over every kernel alike): the median per kernel and cell, to the
  reply and to `idle`;
- a session of SESSION_CELLS cells, each an interface, a const, a function and a use of the previous
  cell's, sent one after the other's `idle` (as nbclient does), ROUNDS times in a fresh kernel of
  each kernel named with a `+` suffix (e.g. `deno+`). The kernels of a round run side by side,
  interleaved BLOCK cells at a time (ours' cells 0-9, Deno's 0-9, ours' 10-19, …; the order swapped
  every round): a load that comes and goes in seconds falls on each alike, where a session after a
  session saw Deno's own sum vary 0.6-3 s under load. Blocks, not single cells: what a kernel leaves
  running after a cell's `idle` (a collection in a thread) then slows its own next cells, as in a
  session alone, and not the other kernel's. Each cell's round trip to its reply and to its `idle`,
  and the session's wall time (its cells' round trips to `idle`). Fresh kernels each round, not one
  warm kernel per kind: each round is then the same session from its first cell (its cells declare
  the same names, and what grows with the cells run so far is part of what is measured).

Prints JSON: {"cells": {kernel: {cell: {"reply": ms, "idle": ms}}},
              "session": {kernel: [{"reply": [ms per cell], "idle": [ms per cell], "wall": ms}
                                   per round]}}.
Every wait is bounded (60 s a message): a kernel that stops answering fails the run.
"""

import json
import statistics
import sys
import time

from jupyter_client.manager import start_new_kernel

CELLS = {
    "1 + 1": "1 + 1",
    "const xs": "const xs = [1, 2, 3].map((v) => v * 2); xs.length",
    "recursive function": "function fib(n: number): number {\n  return n < 2 ? n : fib(n - 1) + fib(n - 2);\n}\nfib(15)",
}
TIMEOUT = 60
# Session cells a kernel runs before the other kernel runs as many (see the file's comment).
BLOCK = 10


def session_cell(i):
    use = " + use%d(%d)" % (i - 1, i) if i > 0 else ""
    return (
        "interface Item%d { n: number; label: string }\n"
        "const item%d: Item%d = { n: %d, label: 'cell %d' };\n"
        "function use%d(x: number): number {\n  return item%d.n + x;\n}\n"
        "use%d(1)%s" % (i, i, i, i, i, i, i, i, use)
    )


def run_cell(client, code):
    """(ms to the reply, ms to idle) of one cell; fails on an error reply."""
    start = time.perf_counter()
    msg_id = client.execute(code)
    reply = client.get_shell_msg(timeout=TIMEOUT)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = client.get_shell_msg(timeout=TIMEOUT)
    replied = time.perf_counter()
    if reply["content"]["status"] != "ok":
        raise RuntimeError("cell failed: %r -> %r" % (code, reply["content"]))
    while True:
        msg = client.get_iopub_msg(timeout=TIMEOUT)
        if (
            msg["parent_header"].get("msg_id") == msg_id
            and msg["msg_type"] == "status"
            and msg["content"]["execution_state"] == "idle"
        ):
            break
    idle = time.perf_counter()
    return (replied - start) * 1000, (idle - start) * 1000


def start(name, cwd):
    manager, client = start_new_kernel(kernel_name=name, cwd=cwd, startup_timeout=TIMEOUT)
    run_cell(client, "0")  # the warm-up cell
    if name.startswith("scratchlab"):
        # What ours starts in the background (the session and its preload, once its checker is
        # ready): a cell that names `session` waits for it, and its idle for the preload's check.
        run_cell(client, "typeof session")
    return manager, client


def stop(kernel):
    manager, client = kernel
    client.stop_channels()
    manager.shutdown_kernel(now=True)


def main():
    cwd, runs, session_cells, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    names = [n.rstrip("+") for n in sys.argv[5:]]
    with_session = [n.rstrip("+") for n in sys.argv[5:] if n.endswith("+")]
    out = {"cells": {}, "session": {}}
    kernels = {}
    try:
        for name in names:
            kernels[name] = start(name, cwd)
        for label, code in CELLS.items():
            times = {name: ([], []) for name in names}
            for _ in range(runs):
                for name in names:
                    reply, idle = run_cell(kernels[name][1], code)
                    times[name][0].append(reply)
                    times[name][1].append(idle)
            for name in names:
                out["cells"].setdefault(name, {})[label] = {
                    "reply": statistics.median(times[name][0]),
                    "idle": statistics.median(times[name][1]),
                }
    finally:
        for kernel in kernels.values():
            stop(kernel)
    for round_ in range(rounds):
        order = with_session if round_ % 2 == 0 else with_session[::-1]
        session = {}
        try:
            for name in order:
                session[name] = start(name, cwd)
            timings = {name: [] for name in order}
            wall = {name: 0.0 for name in order}
            for block in range(0, session_cells, BLOCK):
                for name in order:
                    for i in range(block, min(block + BLOCK, session_cells)):
                        begin = time.perf_counter()
                        timings[name].append(run_cell(session[name][1], session_cell(i)))
                        wall[name] += time.perf_counter() - begin
            for name in order:
                out["session"].setdefault(name, []).append({
                    "reply": [reply for reply, _ in timings[name]],
                    "idle": [idle for _, idle in timings[name]],
                    "wall": wall[name] * 1000,
                })
        finally:
            for kernel in session.values():
                stop(kernel)
    json.dump(out, sys.stdout)


main()
