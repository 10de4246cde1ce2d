/* pool.h — independent tasks in child processes, results handed back in task order (pool.c). */
#ifndef HB_POOL_H
#define HB_POOL_H

#include <stdio.h>
#include <sys/types.h>

#include "hashbench.h"

#define HB_POOL_MAX_CLASSES 4

/* A task runs in a slot of its class (e.g. 0: build and KAT workers, 1: timing CPUs), and not
 * before task `after` (a lower index, or -1) has been handed back. */
typedef struct {
	unsigned cls;
	ssize_t after;
} hb_pool_task;

typedef struct {
	hb_buf data;  /* what run() put in its result */
	hb_buf out;   /* what the task printed on stdout */
	hb_buf err;   /* and on stderr */
	int status;   /* its wait status */
	int skipped;  /* skip() said so: it never ran */
} hb_pool_result;

typedef struct {
	/* in the child, stdout and stderr captured: fill result; nonzero = failed */
	int (*run)(void *ctx, size_t task, int slot, hb_buf *result);
	/* in the parent, in task order, once per task */
	void (*done)(void *ctx, size_t task, const hb_pool_result *res);
	/* in the parent when the task's turn comes, optional: nonzero = do not run it */
	int (*skip)(void *ctx, size_t task);
} hb_pool_fns;

/* Run tasks[0..ntasks) with slots[c] processes at most for each class c. 0 when every task was
 * handed back (whatever the tasks themselves did), negative when the pool itself failed. */
int hb_pool_run(const hb_pool_task *tasks, size_t ntasks, const unsigned *slots, size_t nclasses,
	const hb_pool_fns *fns, void *ctx);
/* The CPUs this process may run on: the default number of jobs. */
unsigned hb_pool_default_jobs(void);
/* Print what a task printed (stdout to out, stderr to err), and say so when it died. */
void hb_pool_replay(const hb_pool_result *res, FILE *out, FILE *err);

#endif
