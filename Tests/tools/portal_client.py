#!/usr/bin/python3
"""A FileChooser client for the portal tests: calls OpenFile (or --method SaveFile/SaveFiles) on pickerd-portal directly
(org.freedesktop.impl.portal.FileChooser) or through the xdg-desktop-portal frontend (--frontend),
stays connected while the dialog is open (the frontend closes a request whose caller leaves),
optionally calls Close on the request once a file appears (--close-when), and prints the answer
as one JSON line: {"response": N, "results": {...}} or {"error": NAME, "message": TEXT}.

    portal_client.py [--frontend] [--method M] [--handle PATH] [--title T] [--multiple] [--bad-multiple]
                     [--directory] [--current-name NAME]
                     [--filter NAME=KIND:PATTERN,...] [--current-filter NAME=KIND:PATTERN,...]
                     [--choice ID=LABEL[=INITIAL[=OPT:LABEL,...]]]... [--current-folder DIR] [--close-when FILE]
"""
import argparse
import json
import os
import sys

import dbus
import dbus.mainloop.glib
from gi.repository import GLib

from dbus_plain import plain

BACKEND = "org.freedesktop.impl.portal.desktop.pickerd"
FRONTEND = "org.freedesktop.portal.Desktop"
DESKTOP = "/org/freedesktop/portal/desktop"


def parse_filter(text):
    name, _, patterns = text.partition("=")
    items = [(dbus.UInt32(int(kind)), pattern)
             for kind, _, pattern in (p.partition(":") for p in patterns.split(","))]
    return dbus.Struct((name, dbus.Array(items, signature="(us)")), signature="sa(us)")


def parse_choice(text):
    """ID=LABEL (a check box), ID=LABEL=INITIAL, or ID=LABEL=INITIAL=OPT:OPTLABEL,... (a list)."""
    parts = text.split("=", 3)
    cid, label = parts[0], parts[1] if len(parts) > 1 else ""
    initial = parts[2] if len(parts) > 2 else ""
    options = [tuple(o.split(":", 1)) for o in parts[3].split(",")] if len(parts) > 3 else []
    return dbus.Struct((cid, label, dbus.Array(options, signature="(ss)"), initial), signature="ssa(ss)s")


def options(args):
    o = {}
    if args.multiple:
        o["multiple"] = dbus.Boolean(True)
    if args.bad_multiple:
        o["multiple"] = dbus.String("yes")
    if args.filter:
        o["filters"] = dbus.Array([parse_filter(f) for f in args.filter], signature="(sa(us))")
    if args.current_filter:
        o["current_filter"] = parse_filter(args.current_filter)
    if args.choice:
        o["choices"] = dbus.Array([parse_choice(c) for c in args.choice], signature="(ssa(ss)s)")
    if args.directory:
        o["directory"] = dbus.Boolean(True)
    if args.current_name:
        o["current_name"] = dbus.String(args.current_name)
    if args.current_folder:
        o["current_folder"] = dbus.ByteArray(args.current_folder.encode() + b"\0")
    return o


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--frontend", action="store_true")
    parser.add_argument("--method", default="OpenFile", choices=["OpenFile", "SaveFile", "SaveFiles"])
    parser.add_argument("--directory", action="store_true")
    parser.add_argument("--current-name")
    parser.add_argument("--handle", default=DESKTOP + "/request/1_1/t1")
    parser.add_argument("--title", default="Upload photo")
    parser.add_argument("--multiple", action="store_true")
    parser.add_argument("--bad-multiple", action="store_true")
    parser.add_argument("--filter", action="append")
    parser.add_argument("--current-filter")
    parser.add_argument("--choice", action="append")
    parser.add_argument("--current-folder")
    parser.add_argument("--close-when")
    args = parser.parse_args()

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    loop = GLib.MainLoop()
    state = {"handle": None}

    def done(answer):
        print(json.dumps(answer), flush=True)
        loop.quit()

    def on_reply(response, results):
        done({"response": int(response), "results": plain(results)})

    def on_error(error):
        done({"error": error.get_dbus_name(), "message": error.get_dbus_message()})

    def on_response(response, results):
        on_reply(response, results)

    if args.frontend:
        opts = options(args)
        opts["handle_token"] = "t1"
        chooser = dbus.Interface(bus.get_object(FRONTEND, DESKTOP), "org.freedesktop.portal.FileChooser")
        sender = bus.get_unique_name()[1:].replace(".", "_")
        state["handle"] = DESKTOP + "/request/" + sender + "/t1"
        bus.add_signal_receiver(on_response, "Response", "org.freedesktop.portal.Request", None, state["handle"])
        getattr(chooser, args.method)("", args.title, opts, reply_handler=lambda h: None, error_handler=on_error)
        request_interface = "org.freedesktop.portal.Request"
        request_bus = FRONTEND
    else:
        chooser = dbus.Interface(bus.get_object(BACKEND, DESKTOP), "org.freedesktop.impl.portal.FileChooser")
        state["handle"] = args.handle
        getattr(chooser, args.method)(dbus.ObjectPath(args.handle), "org.example.App", "", args.title, options(args),
                                      reply_handler=on_reply, error_handler=on_error, timeout=3600)
        request_interface = "org.freedesktop.impl.portal.Request"
        request_bus = BACKEND

    def maybe_close():
        if args.close_when and os.path.exists(args.close_when):
            request = dbus.Interface(bus.get_object(request_bus, state["handle"]), request_interface)
            request.Close(reply_handler=lambda: None, error_handler=lambda e: print(e, file=sys.stderr))
            if args.frontend:
                done({"closed": True})
            return False
        return True

    if args.close_when:
        GLib.timeout_add(50, maybe_close)
    loop.run()


if __name__ == "__main__":
    main()
