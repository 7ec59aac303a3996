"""The package as users get it: pip installs it, errors carry codes and hints."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from support import album_with, connect, pc, unique

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _has(module: str) -> bool:
    return subprocess.run([sys.executable, "-c", "import " + module], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, check=False).returncode == 0


class PipInstallTest(unittest.TestCase):
    @unittest.skipUnless(_has("pip") and _has("setuptools"), "pip or setuptools missing for this Python")
    def test_pip_installs_the_package_with_its_type_marker(self):
        with tempfile.TemporaryDirectory() as tmp:
            # A copy, so the build leaves no build/ or egg-info in the repository.
            src = os.path.join(tmp, "src")
            shutil.copytree(HERE, src, ignore=shutil.ignore_patterns("tests", "__pycache__", "build", "*.egg-info"))
            target = os.path.join(tmp, "site")
            done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation",
                                   "--no-index", "--no-deps", "--target", target, src],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
            self.assertEqual(done.returncode, 0, done.stdout.decode(errors="replace"))
            self.assertTrue(os.path.exists(os.path.join(target, "pickerd_client", "py.typed")))
            probe = ("import sys, pickerd_client as pc; "
                     "assert pc.__file__.startswith(sys.argv[1]), pc.__file__; "
                     "print(pc.Client(timeout=30).ping())")
            env = dict(os.environ, PYTHONPATH=target)
            run = subprocess.run([sys.executable, "-c", probe, target], env=env, cwd=tmp,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
            self.assertEqual(run.returncode, 0, run.stderr.decode(errors="replace"))
            with connect() as c:
                self.assertEqual(run.stdout.decode().strip(), c.capabilities.server_version)


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
                self.assertIn("session.select_album", caught.exception.hint)
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
