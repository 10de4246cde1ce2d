/* sandbox.h — one sandbox for every child process that runs submission code. */
#ifndef HB_SANDBOX_H
#define HB_SANDBOX_H

#include <jansson.h>
#include <stdio.h>

#include "hashbench.h"
#include "lockdown.h"

#define HB_SANDBOX_MEMORY_DEFAULT (4ULL << 30)
#define HB_CHILD_OUTPUT_MAX 65536 /* bytes of a child's stdout and stderr kept */

typedef struct {
	int disabled;                    /* --no-sandbox */
	const char *user;                /* --sandbox-user; NULL: nobody (as root) */
	unsigned long long memory_limit; /* --memory-limit in bytes; 0: 4 GiB */
	const char *scratch;             /* where private working folders are made; NULL: /tmp */
} hb_sandbox_config;

/* Set up the sandbox for this process's children. Probes what the kernel allows (once) and
 * says on warn, once, what it lacks. Without a call, children run in the default sandbox. */
int hb_sandbox_configure(const hb_sandbox_config *cfg, FILE *warn);
int hb_sandbox_enabled(void);
int hb_sandbox_seccomp(void);
/* The "sandbox" object system.json and every record carry: the protections active for a
 * child whose CPU time is limited to cpu_seconds (0: no limit). */
json_t *hb_sandbox_json(unsigned cpu_seconds);
/* The path under which a child finds the library: a copy on HB_CHILD_LIBRARY_FD when
 * sandboxed, else the library itself. */
const char *hb_sandbox_library_path(const char *library);
/* The system calls the filter allows (i-th name, NULL past the end). */
const char *hb_syscall_allowed(size_t i);
/* Build the filter into a new memfd of raw BPF instructions. */
int hb_syscall_filter(int *out_fd);
void hb_syscall_name(char *buf, size_t n, int nr);

typedef enum {
	HB_CHILD_OK,        /* exited 0 */
	HB_CHILD_FAILED,    /* exited non-zero: message says why */
	HB_CHILD_CRASH,     /* ended by a signal */
	HB_CHILD_TIMEOUT,   /* killed at its time limit (wall clock or CPU) */
	HB_CHILD_VIOLATION, /* killed by the seccomp filter */
	HB_CHILD_SETUP      /* the sandbox could not be set up */
} hb_child_status;

typedef struct {
	hb_child_status status;
	int code;             /* exit code, or the signal */
	char call[48];        /* violation: the system call's name, "" when unknown */
	hb_buf result;        /* everything sent on the result channel */
	char *output;         /* stdout and stderr, at most HB_CHILD_OUTPUT_MAX bytes, NUL-ended */
	size_t output_len;
	int output_truncated; /* more was written and dropped */
	char *message;        /* the child's own one-line error, or NULL */
	unsigned timeout_s;
} hb_child;

/* In the child: the library loaded (its constructors have run), the filter in force. */
typedef int (*hb_child_fn)(const hb_impl *impl, void *arg, int result_fd);

/* Run fn on the library in a sandboxed child. 0 when the child ran (its outcome, good or bad,
 * is in *out), HB_ERROR when it could not be started. */
int hb_sandbox_call(hb_child *out, const char *library, unsigned timeout_s, hb_child_fn fn,
	void *arg);
/* Run the driver argv[0] (a program of ours, which applies the filter itself after loading
 * the library) in a sandboxed child. */
int hb_sandbox_exec(hb_child *out, const char *library, unsigned timeout_s, char *const argv[]);
const char *hb_child_status_name(const hb_child *c); /* ok error crash timeout violation */
/* One line on what went wrong, NULL for a child that exited 0 (caller frees). */
char *hb_child_describe(const hb_child *c);
void hb_child_clear(hb_child *c);

#endif
