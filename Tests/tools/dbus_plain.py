"""dbus-python values as plain, JSON-able Python values: shared by the portal test tools."""
import dbus


def plain(value):
    """Byte arrays (ay, NUL-terminated paths) become text; containers are converted all the way down."""
    if isinstance(value, (dbus.ByteArray, bytes)):
        return bytes(value).rstrip(b"\0").decode("utf-8", "replace")
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (dbus.Array, dbus.Struct, list, tuple)):
        if all(isinstance(v, dbus.Byte) for v in value) and len(value) > 0:
            return bytes(int(v) for v in value).rstrip(b"\0").decode("utf-8", "replace")
        return [plain(v) for v in value]
    if isinstance(value, (dbus.String, dbus.ObjectPath, str)):
        return str(value)
    return int(value) if isinstance(value, int) else value
