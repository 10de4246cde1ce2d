/* hbsandbox.h — the sandboxed call: loading and calling an implementation (impl.c), the one
 * sandbox for every child that runs submission code (sandbox.c, confine.c, syscalls.c) and one run
 * of the timing driver hashbench-measure in it (driver.c), and two of them taking turns on one CPU
 * (duet.c). */
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
/* The same, the child finding baton_fd (a socket shared with a partner driver) on
 * HB_CHILD_BATON_FD; -1: none. */
int hb_sandbox_exec_baton(hb_child *out, const char *library, unsigned timeout_s,
	char *const argv[], int baton_fd);
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
	unsigned long long placement_seed; /* each pass's placement of the buffers; 0: malloc's */
	int baton;           /* 0: alone; 1: takes turns with a partner (duet.c); 2: and leads */
} hb_driver_setup;

/* The driver's command line for one pass: argv as the record states it (the library by its
 * path), run as the sandbox runs it (the library's copy, the result and filter descriptors).
 * num holds the numbers both point into. */
typedef struct {
	char *argv[40];
	char *run[48];
	char num[12][640];
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
/* The same, the driver taking turns with a partner through baton_fd (setup's baton set). */
const char *hb_driver_run_baton(hb_child *run, json_t **result, char **detail,
	const hb_driver_cmd *d, const char *library, unsigned limit_s, int baton_fd);

/* ---- two drivers taking turns on one CPU (duet.c) ---- */

/* One side of a duet: its library and its placement of the buffers. */
typedef struct {
	const char *library;
	int digest_bits;
	unsigned long long placement_seed; /* 0: malloc's */
} hb_duet_lib;

/* How one side's driver ended. */
typedef struct {
	const char *status;   /* "ok", "error", "timeout", "crash" or "violation" (static) */
	char *detail;         /* why, when not ok */
	json_t *result;       /* the driver's object when ok */
	json_t *command;      /* the driver's command line as the evidence states it */
	char *output;         /* what the library printed, or NULL */
} hb_duet_side;

/* Run the drivers of lib[0] and lib[1] with setup (its placement_seed and baton set per side)
 * over the sizes in bytes, both in the order of order_seed, pinned to setup's CPU and taking turns
 * (lib[0] first): block k of one is timed between blocks k and k + 1 of the other. 0 when both ran
 * (each outcome, good or bad, in out[i]; free with hb_duet_side_clear), HB_ERROR when they could
 * not be started. */
int hb_duet_run(hb_duet_side out[2], const hb_driver_setup *setup, const hb_duet_lib lib[2],
	const char *bytes, unsigned long long order_seed, unsigned limit_s);
void hb_duet_side_clear(hb_duet_side *s);

#endif
