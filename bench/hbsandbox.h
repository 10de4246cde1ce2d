/* hbsandbox.h — the sandboxed call: loading and calling an implementation (impl.c), the one
 * sandbox for every child that runs submission code (sandbox.c, confine.c, syscalls.c) and one run
 * of the timing driver hashbench-measure in it (driver.c). */
#ifndef HB_SANDBOX_H
#define HB_SANDBOX_H

#include <stdio.h>

#include <jansson.h>

#include "hbtiming.h"
#include "hbutil.h"

/* ---- loading and calling an implementation (impl.c) ---- */

typedef int (*hb_crypthash_fn)(int, const unsigned char *, unsigned long long, unsigned char *);
typedef struct hb_impl hb_impl;

int hb_impl_open(hb_impl **out, const char *library);
void hb_impl_close(hb_impl *impl);
/* Call CryptHash with guard bytes around the output; fails on a non-zero return or
 * on a write past the ceil(digest_bits/8) bytes. out must hold that many bytes. */
int hb_impl_hash(const hb_impl *impl, int digest_bits, const unsigned char *msg,
	unsigned long long msg_bits, unsigned char *out);

/* ---- the sandbox (sandbox.c, confine.c, syscalls.c) ---- */

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
/* The filter as it would be built on arch ("aarch64", "x86_64": libseccomp's names), on any
 * machine, written to fd as libseccomp's readable pseudo filter code. */
int hb_syscall_filter_text(const char *arch, int fd);
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

/* ---- the timing driver in the sandbox (driver.c) ---- */

/* What every pass of a campaign passes to the driver. */
typedef struct {
	const char *exe;     /* the hashbench-measure program */
	const char *counter; /* the counter's name */
	int cpu, blocks, samples;
	unsigned block_us, warmup_ms, max_calls;
} hb_driver_setup;

/* The driver's command line for one pass: argv as the record states it (the library by its
 * path), run as the sandbox runs it (the library's copy, the result and filter descriptors).
 * num holds the numbers both point into. */
typedef struct {
	char *argv[32];
	char *run[40];
	char num[10][640];
} hb_driver_cmd;

/* bytes: the message sizes, comma-separated; calls: the calls per block of each (from an
 * earlier pass, so every pass times the same blocks), or NULL to calibrate; order_seed: the
 * shuffled order of the sizes in each round. */
void hb_driver_cmd_init(hb_driver_cmd *d, const hb_driver_setup *s, const char *library,
	const char *bytes, const char *calls, unsigned long long order_seed, int digest_bits);
/* Run the driver on library with a time limit. Returns the record's status ("ok", "error",
 * "timeout", "crash" or "violation"); *detail (malloc'd) says why when not ok, *result is the
 * driver's JSON object when ok (caller frees), and *run what the child did (its output). */
const char *hb_driver_run(hb_child *run, json_t **result, char **detail, const hb_driver_cmd *d,
	const char *library, unsigned limit_s);

#endif
