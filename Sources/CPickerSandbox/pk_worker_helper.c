// The decoder worker's one helper thread: a streaming decode (pk_feed.c) runs its resampler on
// it, as it runs on an idle pool thread in the daemon, so decode and resample overlap. Started
// before the sandbox; one job at a time (a second request while it is busy is declined: 0).
#define _GNU_SOURCE
#include "pk_sandbox.h"

#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t helper_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t helper_cv = PTHREAD_COND_INITIALIZER;
static void (*helper_fn)(void *);
static void *helper_arg;
static int helper_busy;
static int helper_started;

static void *helper_main(void *unused) {
    (void)unused;
    pthread_mutex_lock(&helper_mu);
    for (;;) {
        while (!helper_fn) pthread_cond_wait(&helper_cv, &helper_mu);
        void (*fn)(void *) = helper_fn;
        void *arg = helper_arg;
        pthread_mutex_unlock(&helper_mu);
        fn(arg);
        pthread_mutex_lock(&helper_mu);
        helper_fn = NULL;
        helper_busy = 0;
    }
    return NULL;
}

int pk_sandbox_helper_start(void) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, helper_main, NULL) != 0) return -1;
    pthread_detach(thread);
    helper_started = 1;
    return 0;
}

int pk_sandbox_helper_spawn(void *context, void (*fn)(void *), void *arg) {
    (void)context;
    pthread_mutex_lock(&helper_mu);
    int taken = helper_started && !helper_busy;
    if (taken) {
        helper_busy = 1;
        helper_fn = fn;
        helper_arg = arg;
        pthread_cond_signal(&helper_cv);
    }
    pthread_mutex_unlock(&helper_mu);
    return taken;
}
