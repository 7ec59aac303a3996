#!/usr/bin/python3
"""A stand-in for the desktop's own FileChooser backend (xdg-desktop-portal-gtk and the like) for
the forwarding tests: owns NAME on the session bus (it is D-Bus activated there), implements
org.freedesktop.impl.portal.FileChooser at /org/freedesktop/portal/desktop, exports
org.freedesktop.impl.portal.Request (Close) at each call's handle, and records every call and Close
as one JSON line in LOG. It answers SaveFile/SaveFiles with (0, {'uris': ['file:///tmp/x.txt']}),
OpenFile with (0, {'uris': ['file:///tmp/folder']}); with --hold it answers nothing until the
request's Close, then (2, {}).

    fake_chooser.py --name NAME --log LOG [--hold]
"""
import argparse
import json

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

from dbus_plain import plain

DESKTOP = "/org/freedesktop/portal/desktop"
CHOOSER = "org.freedesktop.impl.portal.FileChooser"
REQUEST = "org.freedesktop.impl.portal.Request"


class Request(dbus.service.Object):
    def __init__(self, chooser, handle, reply):
        super().__init__(chooser.bus_name, handle)
        self.chooser, self.handle, self.reply = chooser, handle, reply

    @dbus.service.method(REQUEST, in_signature="", out_signature="")
    def Close(self):
        self.chooser.record({"close": self.handle})
        self.finish(2, {})

    def finish(self, response, results):
        if self.reply:
            reply, self.reply = self.reply, None
            reply(dbus.UInt32(response), dbus.Dictionary(results, signature="sv"))
            self.remove_from_connection()


class Chooser(dbus.service.Object):
    def __init__(self, bus_name, log, hold):
        super().__init__(bus_name, DESKTOP)
        self.bus_name, self.log, self.hold = bus_name, log, hold

    def record(self, entry):
        with open(self.log, "a") as f:
            f.write(json.dumps(entry) + "\n")

    def call(self, method, handle, app_id, parent, title, options, uris, reply):
        self.record({"method": method, "handle": str(handle), "app_id": str(app_id), "parent_window": str(parent),
                     "title": str(title), "options": plain(options)})
        request = Request(self, handle, reply)
        if not self.hold:
            request.finish(0, {"uris": dbus.Array(uris, signature="s")})

    @dbus.service.method(CHOOSER, in_signature="osssa{sv}", out_signature="ua{sv}",
                         async_callbacks=("reply", "error"))
    def OpenFile(self, handle, app_id, parent, title, options, reply, error):
        self.call("OpenFile", handle, app_id, parent, title, options, ["file:///tmp/folder"], reply)

    @dbus.service.method(CHOOSER, in_signature="osssa{sv}", out_signature="ua{sv}",
                         async_callbacks=("reply", "error"))
    def SaveFile(self, handle, app_id, parent, title, options, reply, error):
        self.call("SaveFile", handle, app_id, parent, title, options, ["file:///tmp/x.txt"], reply)

    @dbus.service.method(CHOOSER, in_signature="osssa{sv}", out_signature="ua{sv}",
                         async_callbacks=("reply", "error"))
    def SaveFiles(self, handle, app_id, parent, title, options, reply, error):
        self.call("SaveFiles", handle, app_id, parent, title, options, ["file:///tmp/x.txt"], reply)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--hold", action="store_true")
    args = parser.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    loop = GLib.MainLoop()
    bus.call_on_disconnection(lambda _: loop.quit())
    name = dbus.service.BusName(args.name, bus)
    Chooser(name, args.log, args.hold)
    GLib.timeout_add_seconds(900, loop.quit)  # never outlives a test run
    loop.run()


if __name__ == "__main__":
    main()
