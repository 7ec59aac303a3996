#include "CPickerCodecs.h"

#include <stdatomic.h>
#include <stdlib.h>

struct pk_cancel_flag {
    atomic_int raised;
};

pk_cancel_flag *pk_cancel_flag_new(void) {
    pk_cancel_flag *f = malloc(sizeof *f);
    if (f) atomic_init(&f->raised, 0);
    return f;
}

void pk_cancel_flag_free(pk_cancel_flag *flag) { free(flag); }

void pk_cancel_flag_raise(pk_cancel_flag *flag) {
    if (flag) atomic_store_explicit(&flag->raised, 1, memory_order_release);
}

int pk_cancel_flag_is_raised(const pk_cancel_flag *flag) {
    return flag ? atomic_load_explicit(&((pk_cancel_flag *)flag)->raised, memory_order_acquire) : 0;
}

static _Thread_local pk_cancel_flag *pk_current_flag;
static _Thread_local pk_helper_spawn pk_current_spawn;
static _Thread_local void *pk_current_spawn_context;

void pk_cancel_use(pk_cancel_flag *flag) { pk_current_flag = flag; }

pk_cancel_flag *pk_cancel_current(void) { return pk_current_flag; }

int pk_cancelled(void) { return pk_cancel_flag_is_raised(pk_current_flag); }

void pk_helper_use(pk_helper_spawn spawn, void *context) {
    pk_current_spawn = spawn;
    pk_current_spawn_context = context;
}

int pk_helper_start(void (*fn)(void *), void *arg) {
    if (!pk_current_spawn) return 0;
    return pk_current_spawn(pk_current_spawn_context, fn, arg);
}
