/* pool.c — run independent tasks in child processes, a bounded number at a time per class of
 * slots, and hand each one's result and output back to the parent in task order, so what a run
 * prints and writes is the same whatever the number of processes. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hbutil.h"

typedef enum { S_WAITING, S_RUNNING, S_FINISHED, S_DONE } S_state;

typedef struct {
	S_state state;
	pid_t pid;
	int slot;
	int fd[3]; /* result, stdout, stderr: memory files the child fills */
	hb_pool_result res;
} S_task;

static int S_memfd(const char *name)
{
	return memfd_create(name, MFD_CLOEXEC);
}

static int S_slurp(hb_buf *out, int fd)
{
	off_t len = lseek(fd, 0, SEEK_END);
	size_t got = 0;
	memset(out, 0, sizeof(*out));
	if (len < 0)
		return hb_error_set("pool: reading a task's output: %s", strerror(errno));
	out->data = malloc((size_t)len + 1);
	if (!out->data)
		return hb_error_set("out of memory");
	while (got < (size_t)len) {
		ssize_t n = pread(fd, out->data + got, (size_t)len - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	out->data[got] = 0;
	out->len = got;
	return 0;
}

static int S_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* In the child: output into the memory files, run the task, write its result, and end without
 * running the parent's atexit handlers or flushing its copies of stdio buffers twice. */
static void S_child(const hb_pool_fns *fns, void *ctx, size_t task, S_task *t, pid_t parent)
{
	hb_buf result = { 0 };
	int rc;

	prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed campaign leaves no task measuring behind */
	if (getppid() != parent)
		_exit(127);
	if (dup2(t->fd[1], STDOUT_FILENO) < 0 || dup2(t->fd[2], STDERR_FILENO) < 0)
		_exit(127);
	rc = fns->run(ctx, task, t->slot, &result);
	fflush(stdout);
	fflush(stderr);
	if (result.len && S_write_all(t->fd[0], result.data, result.len) != 0)
		rc = 1;
	_exit(rc ? 1 : 0);
}

static void S_close_fds(S_task *t)
{
	int k;
	for (k = 0; k < 3; k++)
		if (t->fd[k] >= 0) {
			close(t->fd[k]);
			t->fd[k] = -1;
		}
}

static int S_start(S_task *t, const hb_pool_fns *fns, void *ctx, size_t task, int slot)
{
	static const char *names[3] = { "hb-task-result", "hb-task-out", "hb-task-err" };
	pid_t parent = getpid();
	int k;

	for (k = 0; k < 3; k++)
		if ((t->fd[k] = S_memfd(names[k])) < 0) {
			S_close_fds(t);
			return hb_error_set("pool: memfd_create: %s", strerror(errno));
		}
	t->slot = slot;
	fflush(stdout);
	fflush(stderr);
	t->pid = fork();
	if (t->pid < 0) {
		S_close_fds(t);
		return hb_error_set("pool: fork: %s", strerror(errno));
	}
	if (t->pid == 0)
		S_child(fns, ctx, task, t, parent);
	t->state = S_RUNNING;
	return 0;
}

static int S_collect(S_task *t, int status)
{
	int rc = 0;
	t->res.status = status;
	if (S_slurp(&t->res.data, t->fd[0]) != 0 || S_slurp(&t->res.out, t->fd[1]) != 0 ||
		S_slurp(&t->res.err, t->fd[2]) != 0)
		rc = HB_ERROR;
	S_close_fds(t);
	t->state = S_FINISHED;
	return rc;
}

static void S_result_clear(hb_pool_result *res)
{
	hb_buf_free(&res->data);
	hb_buf_free(&res->out);
	hb_buf_free(&res->err);
}

int hb_pool_run(const hb_pool_task *tasks, size_t ntasks, const unsigned *slots, size_t nclasses,
	const hb_pool_fns *fns, void *ctx)
{
	S_task *t = calloc(ntasks ? ntasks : 1, sizeof(*t));
	unsigned char *busy[HB_POOL_MAX_CLASSES] = { NULL };
	size_t i, next_done = 0, running = 0, c;
	int rc = 0;

	if (!t)
		return hb_error_set("out of memory");
	if (nclasses > HB_POOL_MAX_CLASSES) {
		free(t);
		return hb_error_set("pool: too many classes of slots");
	}
	for (c = 0; c < nclasses; c++) {
		busy[c] = calloc(slots[c] ? slots[c] : 1, 1);
		if (!busy[c] || slots[c] == 0) {
			rc = hb_error_set(busy[c] ? "pool: a class without slots" : "out of memory");
			goto out;
		}
	}
	for (i = 0; i < ntasks; i++) {
		t[i].fd[0] = t[i].fd[1] = t[i].fd[2] = -1;
		if (tasks[i].cls >= nclasses || (tasks[i].after >= 0 && (size_t)tasks[i].after >= i)) {
			rc = hb_error_set("pool: task %zu: bad class or order", i);
			goto out;
		}
	}

	while (next_done < ntasks) {
		size_t before = next_done, started = running;
		/* start every task whose turn has come, lowest index first */
		for (i = next_done; i < ntasks && rc == 0; i++) {
			unsigned cls = tasks[i].cls, s;
			if (t[i].state != S_WAITING ||
				(tasks[i].after >= 0 && t[tasks[i].after].state != S_DONE))
				continue;
			if (fns->skip && fns->skip(ctx, i)) {
				t[i].res.skipped = 1;
				t[i].state = S_FINISHED;
				started = (size_t)-1;
				continue;
			}
			for (s = 0; s < slots[cls] && busy[cls][s]; s++)
				;
			if (s == slots[cls])
				continue;
			if ((rc = S_start(&t[i], fns, ctx, i, (int)s)) == 0) {
				busy[cls][s] = 1;
				running++;
			}
		}
		/* hand back, in order, what has finished */
		while (rc == 0 && next_done < ntasks && t[next_done].state == S_FINISHED) {
			fns->done(ctx, next_done, &t[next_done].res);
			S_result_clear(&t[next_done].res);
			t[next_done].state = S_DONE;
			next_done++;
		}
		if (rc != 0 || next_done == ntasks)
			break;
		if (running == 0) {
			/* nothing runs: go round again if this turn moved, else the next cannot start */
			if (next_done != before || started != running)
				continue;
			rc = hb_error_set("pool: task %zu can never start", next_done);
			break;
		}
		{
			int status;
			pid_t pid = waitpid(-1, &status, 0);
			if (pid < 0) {
				if (errno == EINTR)
					continue;
				rc = hb_error_set("pool: waitpid: %s", strerror(errno));
				break;
			}
			for (i = next_done; i < ntasks; i++)
				if (t[i].state == S_RUNNING && t[i].pid == pid)
					break;
			if (i == ntasks)
				continue; /* not one of ours */
			busy[tasks[i].cls][t[i].slot] = 0;
			running--;
			rc = S_collect(&t[i], status);
		}
	}
out:
	/* on an error, end what still runs: its result would have nowhere to go */
	for (i = 0; i < ntasks; i++) {
		if (t[i].state == S_RUNNING) {
			kill(t[i].pid, SIGKILL);
			waitpid(t[i].pid, NULL, 0);
		}
		S_close_fds(&t[i]);
		S_result_clear(&t[i].res);
	}
	for (c = 0; c < nclasses; c++)
		free(busy[c]);
	free(t);
	return rc;
}

unsigned hb_pool_default_jobs(void)
{
	cpu_set_t set;
	int n;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	n = CPU_COUNT(&set);
	return n > 0 ? (unsigned)n : 1;
}

void hb_pool_replay(const hb_pool_result *res, FILE *out, FILE *err)
{
	if (res->out.len) {
		fwrite(res->out.data, 1, res->out.len, out);
		fflush(out);
	}
	if (res->err.len) {
		fwrite(res->err.data, 1, res->err.len, err);
		fflush(err);
	}
	if (!res->skipped && !(WIFEXITED(res->status) && WEXITSTATUS(res->status) <= 1)) {
		if (WIFSIGNALED(res->status))
			fprintf(err, "hashbench: internal error: a worker process ended with signal %d\n",
				WTERMSIG(res->status));
		else
			fprintf(err, "hashbench: internal error: a worker process ended with status %d\n",
				WIFEXITED(res->status) ? WEXITSTATUS(res->status) : -1);
		fflush(err);
	}
}
