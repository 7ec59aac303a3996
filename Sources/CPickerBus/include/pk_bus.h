#ifndef PK_BUS_H
#define PK_BUS_H

#include <systemd/sd-bus.h>

/* The xdg-desktop-portal backend objects, declared with sd-bus vtables (macros Swift cannot
 * import). Every method call is handed to one callback with the method's number; the callback
 * answers at once or keeps the message (sd_bus_message_ref) and answers later. It returns 1
 * when it answered or kept the message, or a negative errno for sd-bus to answer as an error. */

enum pk_bus_method {
    PK_BUS_OPEN_FILE = 0,
    PK_BUS_SAVE_FILE = 1,
    PK_BUS_SAVE_FILES = 2,
    PK_BUS_REQUEST_CLOSE = 3,
};

typedef int (*pk_bus_handler)(void *context, sd_bus_message *message, int method);

/* The FileChooser version this backend speaks (Debian 12's frontend, 1.16, speaks 3). */
#define PK_BUS_FILE_CHOOSER_VERSION 3

/* org.freedesktop.impl.portal.FileChooser at /org/freedesktop/portal/desktop. */
int pk_bus_export_file_chooser(sd_bus *bus, pk_bus_handler handler, void *context, sd_bus_slot **slot);

/* org.freedesktop.impl.portal.Request (Close) at `path`, for one pending request. */
int pk_bus_export_request(sd_bus *bus, const char *path, pk_bus_handler handler, void *context, sd_bus_slot **slot);

/* An error reply `name: text` to `call` (sd_bus_reply_method_errorf is variadic). */
int pk_bus_reply_error(sd_bus_message *call, const char *name, const char *text);

/* An empty method return to `call`. */
int pk_bus_reply_empty(sd_bus_message *call);

#endif
