"""The package as users get it: pip installs it, errors carry codes and hints."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from support import album_with, connect, pc, unique

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


REPO = os.path.dirname(os.path.dirname(HERE))


def _has(module: str) -> bool:
    return subprocess.run([sys.executable, "-c", "import " + module], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, check=False).returncode == 0


def _readme_install_commands() -> list:
    """The `pip install` lines of the README's Install block, as a user copies them."""
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        text = f.read()
    block = text.split("## Install", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return [line.split("#", 1)[0].split() for line in block.splitlines() if line.startswith("pip install")]


def _tree(root: str) -> set:
    return {os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs} | \
           {os.path.relpath(d, root) + "/" for d, _, _ in os.walk(root)}


class PipInstallTest(unittest.TestCase):
    """Issue 25 #4: the README's install in a fresh venv (what Debian's python3-venv gives: pip
    and setuptools, no wheel), offline, from the checkout; it leaves nothing in the tree."""

    @unittest.skipUnless(_has("venv") and _has("ensurepip"),
                         "no venv/ensurepip for this Python (Debian: apt-get install python3-venv)")
    def test_the_readme_commands_install_offline_in_a_fresh_venv_and_write_nothing_here(self):
        commands = _readme_install_commands()
        self.assertIn(["pip", "install", "./clients/python"], commands)
        self.assertIn(["pip", "install", "--no-build-isolation", "./clients/python"], commands)
        before = _tree(HERE)
        with tempfile.TemporaryDirectory() as tmp:
            # No index, no proxy that could reach one: whatever pip would fetch fails the run.
            env = {k: v for k, v in os.environ.items()
                   if not k.startswith("PIP_") and k.lower() not in ("http_proxy", "https_proxy")
                   and k != "PYTHONDONTWRITEBYTECODE"}  # as a user runs it: bytecode is written
            env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", HOME=tmp,
                       http_proxy="http://127.0.0.1:9", https_proxy="http://127.0.0.1:9")
            for n, command in enumerate(commands):
                venv = os.path.join(tmp, "venv%d" % n)
                made = subprocess.run([sys.executable, "-m", "venv", venv], stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, check=False)
                self.assertEqual(made.returncode, 0, made.stdout.decode(errors="replace"))
                pip = [os.path.join(venv, "bin", "pip")] + command[1:]
                done = subprocess.run(pip, cwd=REPO, env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, check=False)
                self.assertEqual(done.returncode, 0, "%s:\n%s" % (" ".join(command),
                                                                   done.stdout.decode(errors="replace")))
                probe = ("import sys, pickerd_client as pc, os.path; "
                         "assert pc.__file__.startswith(sys.prefix), pc.__file__; "
                         "assert os.path.exists(os.path.join(os.path.dirname(pc.__file__), 'py.typed')); "
                         "print(pc.Client(timeout=30).ping())")
                run = subprocess.run([os.path.join(venv, "bin", "python"), "-c", probe], env=env, cwd=tmp,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
                self.assertEqual(run.returncode, 0, run.stderr.decode(errors="replace"))
                with connect() as c:
                    self.assertEqual(run.stdout.decode().strip(), c.capabilities.server_version)
        # Only Python's bytecode cache of the build backend, which .gitignore ignores; no build/,
        # no egg-info.
        left = sorted(_tree(HERE) - before)
        self.assertEqual([p for p in left if "__pycache__/" not in p], [], "the install left files here")
        if left and shutil.which("git") and os.path.exists(os.path.join(REPO, ".git")):
            shown = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "."], cwd=HERE,
                                   stdout=subprocess.PIPE, check=False).stdout.decode()
            self.assertNotIn("__pycache__", shown, "the bytecode cache is not ignored by git")
        for p in left:  # the test's own run leaves the tree as it found it
            if p.endswith("/") and os.path.basename(p[:-1]) == "__pycache__":
                shutil.rmtree(os.path.join(HERE, p), ignore_errors=True)


class DefaultSessionTest(unittest.TestCase):
    def test_default_session_is_picker_session_else_the_fallback(self):
        from unittest import mock
        with mock.patch.dict(os.environ, {"PICKER_SESSION": "blog"}):
            self.assertEqual(pc.default_session(), "blog")
        with mock.patch.dict(os.environ, {"PICKER_SESSION": ""}):
            self.assertEqual(pc.default_session(), "python")
            self.assertEqual(pc.default_session("notes"), "notes")


class RequestByFieldsTest(unittest.TestCase):
    def test_request_sends_any_message_by_its_protocol_field_names(self):
        with connect() as c:
            reply = c.request(pc.MessageType.PING)
            self.assertEqual(reply, {"server_version": c.capabilities.server_version})
            albums = c.request(pc.ALBUMS)["albums"]
            self.assertEqual(albums[0]["name"], "All Photos")
            with self.assertRaises(pc.PickerError) as caught:
                c.request(pc.STATUS, session=unique("missing"))
            self.assertIs(caught.exception.code, pc.ErrorCode.NO_SUCH_SESSION)
            self.assertIn("create_session", caught.exception.hint)


class ErrorCodeTest(unittest.TestCase):
    def test_selection_full_carries_its_code_the_daemons_message_and_a_python_hint(self):
        with connect() as c:
            s = c.create_session(unique("full"), 200, max_selection=1)
            try:
                s.select_album(album_with(c, 2).name)
                s.toggle(1)
                with self.assertRaises(pc.PickerError) as caught:
                    s.toggle(2)
                e = caught.exception
                self.assertIs(e.code, pc.ErrorCode.SELECTION_FULL)
                self.assertEqual(e.name, "selection_full")
                self.assertIn("1", e.message)                 # the daemon names the limit
                self.assertNotIn("toggle(", e.message)        # ... and says nothing about Python
                self.assertNotIn("pickerctl", e.message)      # ... nor about another client
                self.assertIn("session.toggle(", e.hint)      # the client says how to fix it
                self.assertIn("hint: " + e.hint, str(e))
            finally:
                s.close()

    def test_nothing_selected_hint_names_the_python_methods(self):
        with connect() as c:
            s = c.create_session(unique("none"), 200)
            try:
                with self.assertRaises(pc.PickerError) as caught:
                    s.toggle(1)
                self.assertIs(caught.exception.code, pc.ErrorCode.NOTHING_SELECTED)
                self.assertNotIn("pickerctl", caught.exception.message)
                self.assertIn("session.select_album", caught.exception.hint)
                for wrong in (lambda: s.select_album("no such album"), lambda: c.session(unique("x")).status()):
                    with self.assertRaises(pc.PickerError) as other:
                        wrong()
                    self.assertNotIn("pickerctl", other.exception.message)
                    self.assertIsNotNone(other.exception.hint)
            finally:
                s.close()

    def test_an_unknown_code_is_kept_as_a_plain_int(self):
        e = pc.PickerError(4242, "something new", 9)
        self.assertEqual(e.code, 4242)
        self.assertNotIsInstance(e.code, pc.ErrorCode)
        self.assertEqual(e.name, "internal")
        self.assertIsNone(e.hint)

    def test_daemon_not_running_hints_how_to_start_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "none.sock")
            with self.assertRaises(pc.DaemonNotRunning) as caught:
                pc.Client(path)
            self.assertIn("pickerd --socket " + path, caught.exception.hint)


if __name__ == "__main__":
    unittest.main()
