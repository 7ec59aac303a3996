#ifndef PK_WORK_H
#define PK_WORK_H

/* How C loops cooperate with the daemon's worker pool, without extra parameters on every
 * decoder: the pool sets two thread-local values around each job it runs.
 *  - the job's cancel flag: streaming decoders check it once per batch of rows and stop
 *    with PK_CANCELLED (see pk_cancelled);
 *  - a helper hook: a streaming decode may run its resampler on an idle pool worker instead
 *    of a thread of its own, so the machine never runs more busy threads than the pool has. */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pk_cancel_flag pk_cancel_flag;

/* A flag that starts lowered; NULL when out of memory. Free with pk_cancel_flag_free. */
pk_cancel_flag *pk_cancel_flag_new(void);
void pk_cancel_flag_free(pk_cancel_flag *flag);
/* Raises the flag (from any thread); it stays raised. */
void pk_cancel_flag_raise(pk_cancel_flag *flag);
int pk_cancel_flag_is_raised(const pk_cancel_flag *flag);

/* The calling thread's current flag (NULL: none; the caller keeps it alive while set). */
void pk_cancel_use(pk_cancel_flag *flag);
pk_cancel_flag *pk_cancel_current(void);
/* Whether the calling thread's current job was cancelled. */
int pk_cancelled(void);

/* Runs fn(arg) on another thread and returns 1, or returns 0 without running it. */
typedef int (*pk_helper_spawn)(void *context, void (*fn)(void *), void *arg);
/* The calling thread's helper hook (NULL: decode on one thread). */
void pk_helper_use(pk_helper_spawn spawn, void *context);
/* Asks the calling thread's hook to run fn(arg) elsewhere; 0 when no hook or no idle helper. */
int pk_helper_start(void (*fn)(void *), void *arg);

#ifdef __cplusplus
}
#endif

#endif
