#!/usr/bin/env python3
"""A minimal Language Server Protocol client for testing tensor-clangd.

It speaks JSON-RPC over the server's stdin/stdout exactly as an editor does:
initialize, didOpen, wait for textDocument/publishDiagnostics, then ask
textDocument/codeAction for each diagnostic and apply the quick-fix edits.
The diagnostics are printed in clang-tidy's text format so that the same
FileCheck expectations serve every front end.

Run directly to diagnose one file:
  lsp_client.py CLANGD FILE CHECK [-- COMPILE_ARGS...]
"""

import json
import os
import queue
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

TIMEOUT_S = 120


class LspError(Exception):
    pass


class LspClient:
    """One server process and the JSON-RPC conversation with it."""

    def __init__(self, command, cwd, stderr):
        self.proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=stderr)
        self.next_id = 1
        self.inbox = queue.Queue()
        self.notifications = []
        threading.Thread(target=self._read_loop, daemon=True).start()

    def _read_loop(self):
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.decode("ascii").strip()
                if not line:
                    break
                key, _, value = line.partition(":")
                headers[key.strip().lower()] = value.strip()
            body = out.read(int(headers["content-length"]))
            self.inbox.put(json.loads(body))

    def _send(self, message):
        message["jsonrpc"] = "2.0"
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body))
        self.proc.stdin.write(body)
        self.proc.stdin.flush()

    def _receive(self, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise LspError("timed out waiting for the server")
        try:
            message = self.inbox.get(timeout=remaining)
        except queue.Empty:
            raise LspError("timed out waiting for the server") from None
        if message is None:
            raise LspError("the server exited (code %s)" % self.proc.poll())
        return message

    def notify(self, method, params):
        self._send({"method": method, "params": params})

    def request(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        self._send({"id": request_id, "method": method, "params": params})
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            message = self._receive(deadline)
            if message.get("id") == request_id and "method" not in message:
                if "error" in message:
                    raise LspError("%s failed: %s" % (method, message["error"]))
                return message.get("result")
            self._handle_unsolicited(message)

    def _handle_unsolicited(self, message):
        if "method" in message and "id" in message:
            # A server-to-client request (e.g. window/workDoneProgress/create):
            # acknowledge it as an editor would.
            self._send({"id": message["id"], "result": None})
        elif "method" in message:
            self.notifications.append(message)

    def wait_notification(self, method, predicate):
        deadline = time.monotonic() + TIMEOUT_S
        for note in self.notifications:
            if note["method"] == method and predicate(note["params"]):
                return note["params"]
        while True:
            message = self._receive(deadline)
            self._handle_unsolicited(message)
            if message.get("method") == method and predicate(message["params"]):
                return message["params"]

    def shutdown(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except (LspError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def path_to_uri(path):
    return "file://" + urllib.request.pathname2url(os.path.abspath(path))


def uri_to_path(uri):
    return urllib.request.url2pathname(urllib.parse.urlparse(uri).path)


def offset_of(text, position):
    """LSP positions count UTF-16 code units; the test files are ASCII."""
    lines = text.split("\n")
    return sum(len(l) + 1 for l in lines[:position["line"]]) + position["character"]


def apply_edits(text, edits):
    spans = sorted(((offset_of(text, e["range"]["start"]),
                     offset_of(text, e["range"]["end"]), e["newText"])
                    for e in edits), reverse=True)
    seen = set()
    for start, end, new_text in spans:
        if (start, end, new_text) in seen:
            continue
        seen.add((start, end, new_text))
        text = text[:start] + new_text + text[end:]
    return text


def edits_for(action, uri):
    edit = action.get("edit") or {}
    edits = list(edit.get("changes", {}).get(uri, []))
    for change in edit.get("documentChanges", []):
        if change.get("textDocument", {}).get("uri") == uri:
            edits.extend(change.get("edits", []))
    return edits


def format_diagnostic(path, diag):
    severity = {1: "error", 2: "warning", 3: "note", 4: "note"}.get(
        diag.get("severity", 1), "error")
    message = diag["message"]
    # clangd decorates messages for display: undo the capital first letter
    # and the "(fix available)" suffix so they read as clang-tidy's.
    message = message[:1].lower() + message[1:]
    if message.endswith(" (fix available)"):
        message = message[:-len(" (fix available)")]
    start = diag["range"]["start"]
    code = diag.get("code")
    lines = ["%s:%d:%d: %s: %s%s" % (path, start["line"] + 1,
                                      start["character"] + 1, severity,
                                      message, " [%s]" % code if code else "")]
    for related in diag.get("relatedInformation", []):
        loc = related["location"]
        rel_start = loc["range"]["start"]
        note = related["message"]
        lines.append("%s:%d:%d: note: %s" % (
            uri_to_path(loc["uri"]), rel_start["line"] + 1,
            rel_start["character"] + 1, note[:1].lower() + note[1:]))
    return "\n".join(lines)


def tidy_config(check, tidy_args):
    """The .clang-tidy text for CHECK plus any -config='{...}' argument."""
    checks = "Checks: '-*,%s'" % check
    for arg in tidy_args:
        for prefix in ("-config=", "--config="):
            if arg.startswith(prefix):
                body = arg[len(prefix):].strip()
                if body.startswith("{") and body[1:].strip() != "}":
                    return "{%s, %s" % (checks, body[1:])
    return checks + "\n"


def diagnose_and_fix(clangd, source, check, tidy_args, compile_args):
    """Opens SOURCE in CLANGD and returns its diagnostics as clang-tidy text;
    the file is rewritten with every quick fix the server offers applied."""
    workdir = os.path.dirname(os.path.abspath(source))
    with open(os.path.join(workdir, "compile_flags.txt"), "w") as f:
        f.write("\n".join(["-xc++", *compile_args]) + "\n")
    with open(os.path.join(workdir, ".clang-tidy"), "w") as f:
        f.write(tidy_config(check, tidy_args))
    # No .clangd: tensor-clangd runs the tensor-* checks with clangd's default
    # FastCheckFilter (Strict), as an editor does with only the shipped
    # .clang-tidy (issue 23, item 5: they ran only with FastCheckFilter: None).
    if os.path.exists(os.path.join(workdir, ".clangd")):
        os.remove(os.path.join(workdir, ".clangd"))

    with open(source, encoding="utf-8") as f:
        text = f.read()
    uri = path_to_uri(source)
    with open(os.path.join(workdir, "clangd.log"), "w") as log:
        client = LspClient([clangd, "--log=error", "--background-index=false",
                            "--clang-tidy", "--enable-config"],
                           workdir, log)
        try:
            client.request("initialize", {
                "processId": os.getpid(),
                "rootUri": path_to_uri(workdir),
                "capabilities": {"textDocument": {
                    "publishDiagnostics": {"relatedInformation": True},
                    "codeAction": {"codeActionLiteralSupport": {
                        "codeActionKind": {"valueSet": ["quickfix"]}}}}},
            })
            client.notify("initialized", {})
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "cpp", "version": 1, "text": text}})
            diags = client.wait_notification(
                "textDocument/publishDiagnostics",
                lambda p: p["uri"] == uri)["diagnostics"]
            edits = []
            for diag in diags:
                actions = client.request("textDocument/codeAction", {
                    "textDocument": {"uri": uri}, "range": diag["range"],
                    "context": {"diagnostics": [diag]}}) or []
                for action in actions:
                    # Overlapping diagnostics may share actions; apply_edits
                    # applies each distinct edit once.
                    if action.get("kind") == "quickfix":
                        edits.extend(edits_for(action, uri))
        finally:
            client.shutdown()
    if edits:
        with open(source, "w", encoding="utf-8") as f:
            f.write(apply_edits(text, edits))
    # clang-tidy prints diagnostics sorted by position; clangd publishes them
    # in the order its callbacks ran.
    diags.sort(key=lambda d: (d["range"]["start"]["line"],
                              d["range"]["start"]["character"]))
    return "\n".join(format_diagnostic(source, d) for d in diags) + "\n"


def main():
    args = sys.argv[1:]
    compile_args = []
    if "--" in args:
        i = args.index("--")
        args, compile_args = args[:i], args[i + 1:]
    if len(args) != 3:
        sys.exit(__doc__)
    clangd, source, check = args
    sys.stdout.write(diagnose_and_fix(clangd, source, check, [], compile_args))


if __name__ == "__main__":
    main()
