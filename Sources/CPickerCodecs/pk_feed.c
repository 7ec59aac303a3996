/*
 * The feed: a decoder hands rows to a resampler, on an idle pool worker when one is free.
 */
#include <pthread.h>
#include <stdlib.h>

#include "CPickerCodecs.h"
#include "pk_internal.h"

/* ----------------------------------------------------------------- feed
 *
 * Hands rows from a decoder to a resampler. For big pictures the resampler
 * runs on an idle worker of the daemon's pool (pk_helper_start) while the
 * decoder goes on with the next rows, so two cores share a single request
 * when one is free; otherwise, and for small pictures, rows are pushed inline.
 * No thread of its own: the pool bounds how many threads are busy.
 */
#define PK_FEED_SLOTS 4
#define PK_FEED_THREAD_MIN_ROWS 256

struct pk_feed {
    pk_resampler *r;
    size_t row_bytes;
    uint8_t *bufs[PK_FEED_SLOTS];
    int counts[PK_FEED_SLOTS];
    unsigned produced, consumed; /* batches; slot = index % PK_FEED_SLOTS */
    int closing, threaded, helper_done;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

static void pk_feed_push_slot(pk_resampler *r, const uint8_t *buf, int n, size_t row_bytes) {
    const uint8_t *rows[PK_FEED_BATCH];
    for (int i = 0; i < n; i++) rows[i] = buf + (size_t)i * row_bytes;
    pk_resampler_push(r, rows, n);
}

static void pk_feed_consume(void *arg) {
    pk_feed *f = arg;
    pthread_mutex_lock(&f->mu);
    for (;;) {
        while (f->consumed == f->produced && !f->closing) pthread_cond_wait(&f->cv, &f->mu);
        if (f->consumed == f->produced) break; /* closing and drained */
        if (f->closing < 0) break;              /* aborted */
        unsigned slot = f->consumed % PK_FEED_SLOTS;
        int n = f->counts[slot];
        pthread_mutex_unlock(&f->mu);
        pk_feed_push_slot(f->r, f->bufs[slot], n, f->row_bytes);
        pthread_mutex_lock(&f->mu);
        f->consumed++;
        pthread_cond_broadcast(&f->cv);
    }
    f->helper_done = 1;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
}

pk_feed *pk_feed_new(pk_resampler *r, size_t row_bytes, int rows_total) {
    if (!r) return NULL;
    pk_feed *f = calloc(1, sizeof *f);
    if (!f) {
        pk_resampler_free(r);
        return NULL;
    }
    f->r = r;
    f->row_bytes = row_bytes;
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->cv, NULL);
    int want_helper = rows_total >= PK_FEED_THREAD_MIN_ROWS;
    int slots = want_helper ? PK_FEED_SLOTS : 1;
    for (int i = 0; i < slots; i++) {
        f->bufs[i] = malloc(row_bytes * PK_FEED_BATCH);
        if (!f->bufs[i]) {
            pk_feed_free(f);
            return NULL;
        }
    }
    if (want_helper) f->threaded = pk_helper_start(pk_feed_consume, f);
    return f;
}

uint8_t *pk_feed_slot(pk_feed *f) {
    if (!f->threaded) return f->bufs[0];
    pthread_mutex_lock(&f->mu);
    while (f->produced - f->consumed == PK_FEED_SLOTS) pthread_cond_wait(&f->cv, &f->mu);
    uint8_t *buf = f->bufs[f->produced % PK_FEED_SLOTS];
    pthread_mutex_unlock(&f->mu);
    return buf;
}

void pk_feed_commit(pk_feed *f, int rows) {
    if (!f->threaded) {
        pk_feed_push_slot(f->r, f->bufs[0], rows, f->row_bytes);
        return;
    }
    pthread_mutex_lock(&f->mu);
    f->counts[f->produced % PK_FEED_SLOTS] = rows;
    f->produced++;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
}

/* Stops the helper: closing = 1 drains what was committed, -1 drops it. Waits until the
 * helper has left the feed (it was queued on an idle worker, so it starts soon). */
static void pk_feed_stop(pk_feed *f, int how) {
    if (!f->threaded) return;
    pthread_mutex_lock(&f->mu);
    f->closing = how;
    pthread_cond_broadcast(&f->cv);
    while (!f->helper_done) pthread_cond_wait(&f->cv, &f->mu);
    pthread_mutex_unlock(&f->mu);
    f->threaded = 0;
}

int pk_feed_finish(pk_feed *f, uint8_t **out) {
    pk_feed_stop(f, 1);
    int status = pk_resampler_finish(f->r, out);
    pk_feed_free(f);
    return status;
}

void pk_feed_free(pk_feed *f) {
    if (!f) return;
    pk_feed_stop(f, -1);
    for (int i = 0; i < PK_FEED_SLOTS; i++) free(f->bufs[i]);
    pk_resampler_free(f->r);
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->cv);
    free(f);
}
