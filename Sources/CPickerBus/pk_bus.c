#include "pk_bus.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* The handler and its context travel as the object's userdata. */
struct pk_bus_target {
    pk_bus_handler handler;
    void *context;
};

/* One target per export: the FileChooser object lives as long as the bus, a Request object as
 * long as its slot; the slot's destroy callback frees its target. */
static void pk_bus_free_target(void *userdata) { free(userdata); }

static int pk_bus_dispatch(sd_bus_message *m, void *userdata, int method) {
    struct pk_bus_target *target = userdata;
    return target->handler(target->context, m, method);
}

static int pk_open_file(sd_bus_message *m, void *u, sd_bus_error *e) { (void)e; return pk_bus_dispatch(m, u, PK_BUS_OPEN_FILE); }
static int pk_save_file(sd_bus_message *m, void *u, sd_bus_error *e) { (void)e; return pk_bus_dispatch(m, u, PK_BUS_SAVE_FILE); }
static int pk_save_files(sd_bus_message *m, void *u, sd_bus_error *e) { (void)e; return pk_bus_dispatch(m, u, PK_BUS_SAVE_FILES); }
static int pk_close(sd_bus_message *m, void *u, sd_bus_error *e) { (void)e; return pk_bus_dispatch(m, u, PK_BUS_REQUEST_CLOSE); }

static int pk_version(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface; (void)property; (void)userdata; (void)error;
    return sd_bus_message_append_basic(reply, 'u', &(uint32_t){PK_BUS_FILE_CHOOSER_VERSION});
}

static const sd_bus_vtable pk_file_chooser_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD_WITH_NAMES("OpenFile", "osssa{sv}",
        SD_BUS_PARAM(handle) SD_BUS_PARAM(app_id) SD_BUS_PARAM(parent_window) SD_BUS_PARAM(title) SD_BUS_PARAM(options),
        "ua{sv}", SD_BUS_PARAM(response) SD_BUS_PARAM(results), pk_open_file, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("SaveFile", "osssa{sv}",
        SD_BUS_PARAM(handle) SD_BUS_PARAM(app_id) SD_BUS_PARAM(parent_window) SD_BUS_PARAM(title) SD_BUS_PARAM(options),
        "ua{sv}", SD_BUS_PARAM(response) SD_BUS_PARAM(results), pk_save_file, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("SaveFiles", "osssa{sv}",
        SD_BUS_PARAM(handle) SD_BUS_PARAM(app_id) SD_BUS_PARAM(parent_window) SD_BUS_PARAM(title) SD_BUS_PARAM(options),
        "ua{sv}", SD_BUS_PARAM(response) SD_BUS_PARAM(results), pk_save_files, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("version", "u", pk_version, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END
};

static const sd_bus_vtable pk_request_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Close", "", "", pk_close, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END
};

static int pk_bus_export(sd_bus *bus, const char *path, const char *interface, const sd_bus_vtable *vtable,
                         pk_bus_handler handler, void *context, sd_bus_slot **slot) {
    struct pk_bus_target *target = malloc(sizeof *target);
    if (!target) return -ENOMEM;
    target->handler = handler;
    target->context = context;
    int r = sd_bus_add_object_vtable(bus, slot, path, interface, vtable, target);
    if (r < 0) { free(target); return r; }
    sd_bus_slot_set_destroy_callback(*slot, pk_bus_free_target);
    return r;
}

int pk_bus_export_file_chooser(sd_bus *bus, pk_bus_handler handler, void *context, sd_bus_slot **slot) {
    return pk_bus_export(bus, "/org/freedesktop/portal/desktop", "org.freedesktop.impl.portal.FileChooser",
                         pk_file_chooser_vtable, handler, context, slot);
}

int pk_bus_export_request(sd_bus *bus, const char *path, pk_bus_handler handler, void *context, sd_bus_slot **slot) {
    return pk_bus_export(bus, path, "org.freedesktop.impl.portal.Request", pk_request_vtable, handler, context, slot);
}

int pk_bus_reply_error(sd_bus_message *call, const char *name, const char *text) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_error_set(&error, name, text);
    int r = sd_bus_reply_method_error(call, &error);
    sd_bus_error_free(&error);
    return r;
}

int pk_bus_reply_empty(sd_bus_message *call) { return sd_bus_reply_method_return(call, ""); }
