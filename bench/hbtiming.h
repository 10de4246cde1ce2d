/* hbtiming.h — the timing core, libc only, built into hashbench-measure as well as the library:
 * the one clock (counter.c), the exact memory of one call (callmem.c), the sentinel's workload
 * (sentinel_work.c) and the last step of a sandboxed child before submission code runs
 * (lockdown.c). */
#ifndef HB_TIMING_H
#define HB_TIMING_H

#include <stddef.h>
#include <stdint.h>

/* ---- the clock: the best cycle counter the machine offers, and CLOCK_MONOTONIC_RAW nanoseconds
 * beside it (counter.c) ---- */

typedef enum { HB_COUNTER_PERF, HB_COUNTER_TSC, HB_COUNTER_CNTVCT, HB_COUNTER_NONE } hb_counter_kind;

typedef struct {
	hb_counter_kind kind;
	int fd;            /* perf event, -1 otherwise */
	double hz;         /* ticks per second; 0 for perf-cycles (core cycles, not a clock) */
} hb_counter;

/* Open the counter called name ("perf-cycles", "tsc", "cntvct"), or the best available when
 * name is NULL or "auto". Returns 0, or -1 when that counter is not available here. */
int hb_counter_open(hb_counter *c, const char *name);
void hb_counter_close(hb_counter *c);
const char *hb_counter_name(const hb_counter *c);
/* 1 when the figures read from c are the core's cycles (perf-cycles; the time-stamp counter is
 * taken for them), 0 when they are ticks of a clock of the counter's own (cntvct). */
int hb_counter_counts_cycles(const hb_counter *c);
uint64_t hb_counter_read(const hb_counter *c);
uint64_t hb_now_ns(void);
/* Ticks per second of a clock-like counter, measured against CLOCK_MONOTONIC_RAW. */
double hb_counter_calibrate_hz(const hb_counter *c, unsigned ms);

/* The next value of a splitmix64 stream from state x (the messages' bytes, the order of the
 * sizes, each pass's seeds and placement, the bootstraps' draws): one definition for the driver
 * and the library alike. */
static inline unsigned long long hb_splitmix64(unsigned long long *x)
{
	unsigned long long z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The calibration rule: calls per round so that a round lasts round_ns, at least 1 and at
 * most max_calls, from the time one call took during the warm-up. */
uint64_t hb_calls_per_round(double per_call_ns, double round_ns, uint64_t max_calls);

/* ---- the exact memory of one CryptHash call, for hashbench-measure --memory (callmem.c): the
 * stack high-water mark on a painted stack of the driver's own, and the heap and mmap use of the
 * library counted through its own GOT ---- */

#define HB_CALLMEM_STACK_BYTES (8u << 20) /* the call's stack: the usual main-thread limit */

typedef struct {
	unsigned long long stack_bytes;        /* below the call's entry, less the driver's frame */
	unsigned long long stack_driver_bytes; /* the same path into an empty function */
	unsigned long long heap_peak_bytes;    /* peak of live bytes requested during the call */
	unsigned long long heap_allocations;   /* allocation calls during the call */
	unsigned long long mmap_bytes;         /* peak of anonymous bytes the library mapped itself */
	int heap_untracked;     /* the table of live blocks overflowed: the peak is an upper bound */
	char redirected[256];   /* the library's functions that were redirected, comma-separated */
} hb_callmem;

/* Find the library's GOT slots of the allocation functions (handle from dlopen). Call before the
 * seccomp filter: it reads the link map only, but the filter must not be in the way of errors. */
int hb_callmem_prepare(void *handle, char *err, size_t errlen);

/* Run call(arg) once on the painted stack with the library's allocation functions counted; its
 * return value in *rc. 0 on success, -1 (err filled) when the stack could not be set up. */
int hb_callmem_run(hb_callmem *out, int *rc, int (*call)(void *), void *arg, char *err,
	size_t errlen);

/* ---- the sentinel's fixed reference workload (sentinel_work.c), built into hashbench-measure
 * with the project's flags, timed before and after every record ---- */

#define HB_SENTINEL_MESSAGE 4096u   /* bytes, hashed again and again: it stays in L1 */
#define HB_SENTINEL_BLOCKS 16384u   /* 64-byte blocks a reading: 1 MiB */
#define HB_SENTINEL_CHUNKS 16u     /* timed apart; a reading is the fastest, times this */
#define HB_SENTINEL_WORKLOAD "the SM3 compression function over a fixed 4 KiB message, " \
	"16384 blocks (1 MiB, about 10 ms here) timed as 16 chunks of 1024 blocks, a reading " \
	"being 16 times the fastest chunk, built into hashbench-measure"

typedef struct {
	uint64_t cycles, ns;
} hb_sentinel_reading;

/* One timed run of the workload (after a short untimed one that warms caches and clock): 16
 * times its fastest chunk, so that what the machine adds to one chunk is not counted. */
hb_sentinel_reading hb_sentinel_time(hb_counter *c);

/* ---- the lockdown (lockdown.c): the last step of a sandboxed child before submission code
 * runs ---- */

/* The descriptors a sandboxed child finds open (stdin is /dev/null; stdout and stderr go to
 * the bounded capture). */
#define HB_CHILD_RESULT_FD 3  /* the driver's protocol: what the parent keeps as the result */
#define HB_CHILD_REPORT_FD 4  /* the sandbox's own reports: violations, errors, exit status */
#define HB_CHILD_LIBRARY_FD 5 /* a copy of the library under test */
#define HB_CHILD_FILTER_FD 6  /* the seccomp program, raw BPF instructions */
#define HB_CHILD_LIBRARY_PATH "/proc/self/fd/5"
#define HB_CHILD_BATON_FD 8   /* hashbench compare: the turns taken with a partner driver */

/* The report line a child writes before it dies of a forbidden system call. */
#define HB_VIOLATION_TAG "hashbench-violation "

/* Read the BPF program from fd (from offset 0, without moving a shared offset). The program
 * is malloc'd into *out_insns; *out_count instructions. 0 or -1 (errno set). */
int hb_lockdown_read(void **out_insns, unsigned short *out_count, int fd);

/* From now on every system call outside the filter kills this process with SIGSYS after one
 * line "hashbench-violation <number>" on report_fd. Also sets no-new-privileges. 0 or -1. */
int hb_lockdown(const void *insns, unsigned short count, int report_fd);

#endif
