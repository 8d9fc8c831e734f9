"""Jupyter's own kernel conformance suite (jupyter_kernel_test, Debian's
python3-jupyter-kernel-test) against a scratchlab kernel, with TypeScript samples for every test
the suite has but the pager (TypeScript has no pager).

    /usr/bin/python3 conformance.py KERNEL_NAME

Runs in the kernel's working folder (the Jupyter home's environment comes from the caller). Writes
one JSON object to stdout: {"tests": {TEST_ID: "passed" | "failed" | "skipped" | "error"},
"details": [TEXT, ...]}; exits 1 unless every test passed.
"""

import json
import sys
import unittest

import jupyter_kernel_test

# Longest wait for each of the cells that warm the kernel up (see setUpClass).
WARM_UP_S = 120

# A 1x1 PNG.
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


class ScratchlabKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = sys.argv[1]
    language_name = "typescript"
    file_extension = ".ts"

    code_hello_world = "console.log('hello, world')"
    code_stderr = "console.error('to stderr')"
    code_generate_error = "throw new Error('boom')"

    completion_samples = [
        {"text": "Math.ab", "matches": {"abs"}},
        {"text": "JSON.str", "matches": {"stringify"}},
    ]

    complete_code_samples = ["1 + 1", "const x = 1;", "function f() {\n  return 1;\n}", "md`# title`", "String(`a\nb`)"]
    # A template inside an open bracket too (the README's `live({ sql: `…` typed line by line).
    incomplete_code_samples = ["function f() {", "const xs = [1,", "const t = `open", "1 +", "String(`a", "live({\n  sql: `select 1"]
    invalid_code_samples = ["const = ;", "}", "'no end\n"]

    code_execute_result = [
        {"code": "1 + 2", "result": "3"},
        {"code": "'a' + 'b'", "result": "'ab'"},
        {"code": "md`# title`", "mime": "text/markdown", "result": "# title"},
    ]
    code_display_data = [
        {"code": "display(html`<b>bold</b>`); undefined", "mime": "text/html"},
        {"code": "display(md`*emphasis*`); undefined", "mime": "text/markdown"},
        {"code": "display(svg`<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>`); undefined",
         "mime": "image/svg+xml"},
        {"code": "display(image(Buffer.from('%s', 'base64'))); undefined" % PNG, "mime": "image/png"},
    ]

    # Matches '1 + 2' only among the samples that run.
    code_history_pattern = "1 + ?"
    supported_history_operations = ("tail", "range", "search")

    code_inspect_sample = "Math.max"
    code_clear_output = "console.log('soon cleared'); clearOutput({ wait: true })"

    @classmethod
    def setUpClass(cls):
        """The suite's own, then two cells kept out of the history, each awaited to its `idle`
        (120 s at most): a kernel's first cells load TypeScript's type checker, whose first checks
        come before their replies (kernel/execution/cell-runner.ts) and took longer than the
        suite's 15 s for a reply on a loaded machine. The suite's bounds then apply to a ready
        kernel, as to any other."""
        super().setUpClass()
        for code in ("1", "2"):
            reply = cls.kc.execute_interactive(code, store_history=False, timeout=WARM_UP_S,
                                               output_hook=lambda msg: None)
            if reply["content"]["status"] != "ok":
                raise RuntimeError("the warm-up cell %r failed: %r" % (code, reply["content"]))

    def execute_helper(self, *args, **kwargs):
        """The suite's own, waiting for each message after the reply up to the suite's TIMEOUT
        rather than 0.1 s. It reads them until the request's `idle`, which the protocol lets come
        any time after the reply; this kernel's follows the cell's type check, begun once the reply
        is out (0.1 s was too short for it on a loaded machine). Still a bound, on the `idle`."""
        channel = self.kc.iopub_channel
        short = channel.get_msg

        async def patient(timeout=None):
            return await short(timeout=max(timeout or 0, jupyter_kernel_test.TIMEOUT))

        channel.get_msg = patient
        try:
            return super().execute_helper(*args, **kwargs)
        finally:
            del channel.get_msg


class Recorder(unittest.TextTestResult):
    """Every test's (and sub-test's) outcome by id."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outcomes = {}
        self.details = []

    def _set(self, test, outcome):
        name = test.id().split(".")[-1]
        if self.outcomes.get(name) in ("failed", "error", "skipped"):
            return
        self.outcomes[name] = outcome

    def addSuccess(self, test):
        super().addSuccess(test)
        self._set(test, "passed")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._set(test, "failed")
        self.details.append(self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self._set(test, "error")
        self.details.append(self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._set(test, "skipped")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is None:
            return
        name = test.id().split(".")[-1]
        if issubclass(err[0], unittest.SkipTest):
            self.outcomes[name] = "skipped"
            self.details.append("%s skipped: %s" % (subtest.id(), err[1]))
        else:
            self.outcomes[name] = "failed"
            self.details.append(self._exc_info_to_string(err, test))


def main():
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(ScratchlabKernelTests)
    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=2, resultclass=Recorder)
    result = runner.run(suite)
    json.dump({"tests": result.outcomes, "details": result.details}, sys.stdout)
    ok = all(outcome == "passed" for name, outcome in result.outcomes.items() if name != "test_pager")
    sys.exit(0 if ok else 1)


main()
