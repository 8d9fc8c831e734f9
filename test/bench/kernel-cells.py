"""Per-cell cost of kernels, side by side: for each kernel named on the command line, starts it
through jupyter_client, runs a few warm-up cells and lets background start-up work finish, then
times rounds of trivial cells (execute
request to idle status, as a front end waits), kernels interleaved round by round.

    python3 kernel-cells.py CWD CELLS ROUNDS KERNEL [KERNEL ...]

Prints JSON: {kernel: [ms per cell of each round, ...]}. Plain tslab loses messages past about
170 cells (see kernel/protocol/send-queue.ts), so CELLS * ROUNDS stays below that.
"""

import json
import sys
import time

from jupyter_client.manager import start_new_kernel


def run_cell(client, code):
    msg_id = client.execute(code)
    while True:
        msg = client.get_iopub_msg(timeout=30)
        if (
            msg["parent_header"].get("msg_id") == msg_id
            and msg["msg_type"] == "status"
            and msg["content"]["execution_state"] == "idle"
        ):
            break
    client.get_shell_msg(timeout=30)


def main():
    cwd, cells, rounds, names = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    kernels = {}
    try:
        for name in names:
            kernels[name] = start_new_kernel(kernel_name=name, cwd=cwd, startup_timeout=60)
            for i in range(5):
                run_cell(kernels[name][1], "%d + 1" % i)
        # What kernels start in the background (ours: the session, a second after start-up) is done.
        time.sleep(3)
        timings = {name: [] for name in names}
        for r in range(rounds):
            for name in names:
                client = kernels[name][1]
                start = time.perf_counter()
                for i in range(cells):
                    run_cell(client, "%d + 1" % i)
                timings[name].append((time.perf_counter() - start) * 1000 / cells)
        json.dump(timings, sys.stdout)
    finally:
        for manager, client in kernels.values():
            client.stop_channels()
            manager.shutdown_kernel(now=True)


main()
