"""Drives a real kernel through jupyter_client, as a front end does, for the kernel tests.

Reads one JSON object from stdin:
    {"kernel": NAME, "cwd": DIR, "requests": [REQUEST, ...], "timeout": SECONDS}
where a REQUEST is {"execute": CODE} (with "silent" and "store_history" when given), {"inspect": CODE, "cursor": N}, {"kernel_info": true},
{"history": {HISTORY_REQUEST_FIELDS}},
{"comm_info": TARGET_NAME_OR_NULL}, {"restart": true} (a restart as Jupyter's "Restart kernel" does it:
an interrupt, shutdown_request with restart true, up to 5 s for the process to end before it is
killed, a new kernel on the same ports; answers {"reply": null, "iopub": [], "exited": BOOL,
"exit_code": N} about the old process, and the next requests go to the new kernel), {"comm": "comm_open" | "comm_msg" | "comm_close", "content": {...}}
(no shell reply: only its iopub messages), {"interrupt_after_reply": CODE} (executed, then
interrupted as Jupyter does once its reply is in, its messages collected up to idle),
{"after_reply": [CODE, NEXT]} (CODE executed, and NEXT sent the moment CODE's reply is in, before
its idle; answers two results, CODE's and NEXT's), {"batch": [CODE, ...], "stop_on_error": BOOL} (sent all
at once, then answered one by one), {"shutdown_after_reply": CODE} (last: executed, and the
shutdown request sent as soon as its reply is in, while its type check may still run; answers as
"shutdown" does, with the execute reply as "execute_reply"), or {"shutdown": true} (last: the shutdown request on the
control channel, then every iopub message of any parent until the kernel process exits, and
whether it exited by itself within the 5 s Jupyter gives it before killing it: {"reply": ..., "iopub": [...], "exited": BOOL, "exit_code": N}),
or {"shutdown_during": CODE} (last: CODE is executed, and once it has written to stdout or
stderr the shutdown request goes out while it still runs; answered as {"shutdown": true}, with the
cell's messages before the request in its "iopub" too),
and writes one JSON object to stdout: {"results": [RESULT, ...]} where each RESULT holds the reply's
content and, for executions, every iopub message whose parent is the request, in order, up to its
`idle` status: [{"type": ..., "content": ...}, ...]. A missing message is a timeout (recorded in
"error"), never a hang. "log" in the job, optional, names a file for the kernel's stdout and stderr (its log).
"""

import json
import sys
import time

from jupyter_client.manager import start_new_kernel


def collect(client, msg_id, timeout):
    """The iopub messages of one request, up to its idle status."""
    messages = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return messages, "no idle status within %ss" % timeout
        try:
            msg = client.get_iopub_msg(timeout=left)
        except Exception:  # queue.Empty
            return messages, "no idle status within %ss" % timeout
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind = msg["msg_type"]
        messages.append({"type": kind, "content": msg["content"]})
        if kind == "status" and msg["content"]["execution_state"] == "idle":
            return messages, None


def shutdown(manager, client, messages=None):
    """Sends shutdown_request and watches iopub until the kernel process has gone, for as long as
    Jupyter waits before it kills a kernel (KernelManager.shutdown_wait_time, 5 s)."""
    msg_id = client.shutdown()
    messages = messages if messages is not None else []
    deadline = time.monotonic() + manager.shutdown_wait_time
    while manager.is_alive() and time.monotonic() < deadline:
        try:
            msg = client.get_iopub_msg(timeout=0.1)
        except Exception:  # queue.Empty
            continue
        messages.append({"type": msg["msg_type"], "content": msg["content"],
                         "parent": msg["parent_header"].get("msg_type")})
    exited = not manager.is_alive()
    # Anything still in flight once the process has gone.
    while True:
        try:
            msg = client.get_iopub_msg(timeout=0.5)
        except Exception:
            break
        messages.append({"type": msg["msg_type"], "content": msg["content"],
                         "parent": msg["parent_header"].get("msg_type")})
    reply = None
    try:
        reply = client.get_control_msg(timeout=1)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = client.get_control_msg(timeout=1)
        reply = reply["content"]
    except Exception:
        reply = None
    process = getattr(manager.provisioner, "process", None) if manager.provisioner else None
    code = process.poll() if process is not None else None
    return {"reply": reply, "iopub": messages, "exited": exited, "exit_code": code}


def restart(manager, client, timeout):
    """Restarts the kernel as a front end's "Restart kernel" does (KernelManager.restart_kernel,
    not forced), and waits for the new one to answer; says how the old process ended."""
    old = manager.provisioner.process
    manager.restart_kernel(now=False)
    client.wait_for_ready(timeout=timeout)
    code = old.poll()
    # Killed by Jupyter after its wait: a negative code (the signal); ended by itself: 0.
    return {"reply": None, "iopub": [], "exited": code is not None and code >= 0, "exit_code": code}


def shutdown_during(manager, client, request, timeout):
    """Executes a cell and, once it has written something, shuts the kernel down while it runs."""
    msg_id = client.execute(request["shutdown_during"])
    messages = []
    deadline = time.monotonic() + timeout
    while not any(m["type"] == "stream" for m in messages) and time.monotonic() < deadline:
        try:
            msg = client.get_iopub_msg(timeout=0.1)
        except Exception:  # queue.Empty
            continue
        if msg["parent_header"].get("msg_id") == msg_id:
            messages.append({"type": msg["msg_type"], "content": msg["content"],
                             "parent": msg["parent_header"].get("msg_type")})
    return shutdown(manager, client, messages)


def main():
    job = json.load(sys.stdin)
    timeout = job.get("timeout", 60)
    log = open(job["log"], "w") if job.get("log") else None
    manager, client = start_new_kernel(kernel_name=job["kernel"], cwd=job["cwd"], startup_timeout=60,
                                       **({"stdout": log, "stderr": log} if log else {}))
    results = []
    try:
        for request in job["requests"]:
            if "batch" in request:
                # Sent all at once, as "run all" does; then each reply and its messages in turn.
                ids = [client.execute(code, stop_on_error=request.get("stop_on_error", True)) for code in request["batch"]]
                replies = {}
                while not all(msg_id in replies for msg_id in ids):
                    reply = client.get_shell_msg(timeout=timeout)
                    replies[reply["parent_header"].get("msg_id")] = reply["content"]
                for msg_id in ids:
                    messages, error = collect(client, msg_id, timeout)
                    result = {"reply": replies.get(msg_id), "iopub": messages}
                    if error:
                        result["error"] = error
                    results.append(result)
                continue
            if "restart" in request:
                results.append(restart(manager, client, timeout))
                continue
            if "shutdown" in request:
                results.append(shutdown(manager, client))
                break
            if "shutdown_during" in request:
                results.append(shutdown_during(manager, client, request, timeout))
                break
            if "shutdown_after_reply" in request:
                msg_id = client.execute(request["shutdown_after_reply"])
                reply = client.get_shell_msg(timeout=timeout)
                while reply["parent_header"].get("msg_id") != msg_id:
                    reply = client.get_shell_msg(timeout=timeout)
                result = shutdown(manager, client)
                result["execute_reply"] = reply["content"]
                results.append(result)
                break
            if "comm" in request:
                # Comm messages have no reply: only the iopub messages they cause.
                msg = client.session.msg(request["comm"], request.get("content", {}))
                client.shell_channel.send(msg)
                messages, error = collect(client, msg["header"]["msg_id"], timeout)
                result = {"reply": None, "iopub": messages}
                if error:
                    result["error"] = error
                results.append(result)
                continue
            if "after_reply" in request:
                first, then = request["after_reply"]
                ids = [client.execute(first)]
                replies = {}
                while ids[0] not in replies:
                    reply = client.get_shell_msg(timeout=timeout)
                    replies[reply["parent_header"].get("msg_id")] = reply["content"]
                ids.append(client.execute(then))
                while ids[1] not in replies:
                    reply = client.get_shell_msg(timeout=timeout)
                    replies[reply["parent_header"].get("msg_id")] = reply["content"]
                for msg_id in ids:
                    messages, error = collect(client, msg_id, timeout)
                    result = {"reply": replies[msg_id], "iopub": messages}
                    if error:
                        result["error"] = error
                    results.append(result)
                continue
            if "interrupt_after_reply" in request:
                msg_id = client.execute(request["interrupt_after_reply"], store_history=True)
                reply = client.get_shell_msg(timeout=timeout)
                while reply["parent_header"].get("msg_id") != msg_id:
                    reply = client.get_shell_msg(timeout=timeout)
                manager.interrupt_kernel()
                messages, error = collect(client, msg_id, timeout)
                result = {"reply": reply["content"], "iopub": messages}
                if error:
                    result["error"] = error
                results.append(result)
                continue
            if "execute" in request:
                msg_id = client.execute(request["execute"], silent=request.get("silent", False),
                                        store_history=request.get("store_history", True))
            elif "inspect" in request:
                msg_id = client.inspect(request["inspect"], request.get("cursor", len(request["inspect"])))
            elif "comm_info" in request:
                msg_id = client.comm_info(request["comm_info"])
            elif "history" in request:
                msg_id = client.history(**request["history"])
            elif "complete" in request:
                msg_id = client.complete(request["complete"], request.get("cursor", len(request["complete"])))
            else:
                msg_id = client.kernel_info()
            try:
                reply = client.get_shell_msg(timeout=timeout)
                while reply["parent_header"].get("msg_id") != msg_id:
                    reply = client.get_shell_msg(timeout=timeout)
                content = reply["content"]
            except Exception:
                content = None
            messages, error = collect(client, msg_id, timeout)
            result = {"reply": content, "iopub": messages}
            if content is None:
                error = error or "no reply within %ss" % timeout
            if error:
                result["error"] = error
            results.append(result)
            if error and job.get("stop_on_timeout", True):
                break
    finally:
        client.stop_channels()
        if manager.is_alive():
            manager.shutdown_kernel(now=False)
        else:
            manager.cleanup_resources()
    json.dump({"results": results}, sys.stdout)


main()
