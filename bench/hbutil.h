/* hbutil.h — the ground floor of the benchmark library: errors, files, hex and SHA-256, child
 * commands, string lists, JSON evidence files, notes and progress, the time a run has left,
 * statistics, worker processes, CPU locks and ELF sizes. Nothing here knows of packages, builds
 * or campaigns. */
#ifndef HB_UTIL_H
#define HB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

#define HB_VERSION "0.1.0"

/* ---- errors: every failing function stores one message and returns a negative code ---- */

#define HB_ERROR (-1)
#define HB_ENOTFOUND (-2)
#define HB_ETIMEOUT (-3)

int hb_error_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prefix the stored message with context ("file: " + old message). */
int hb_error_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *hb_error_last(void);

/* ---- hashbench's own files (ownfiles.c): an installed tree's, found from the executable, or
 * the checkout's it was built from ---- */

typedef enum {
	HB_OWN_PROFILES,    /* the build profiles, profiles.conf */
	HB_OWN_ALGORITHMS,  /* the bundled baselines */
	HB_OWN_NULL_SOURCE, /* the null instance's source */
	HB_OWN_MEASURE,     /* the timing driver hashbench-measure */
	HB_OWN_WORK,        /* the default work folder ($HASHBENCH_WORK when set) */
	HB_OWN_COUNT
} hb_own_file;

/* The path of one of hashbench's own files (borrowed, valid for the process's life). */
const char *hb_own_path(hb_own_file which);
/* This machine's default evidence name: <arch>-<short host name>, e.g. x86_64-lab3, characters
 * outside [A-Za-z0-9_.-] replaced by '-' (the caller frees). */
char *hb_machine_name(void);

/* ---- files, hex, SHA-256 and child commands (fsutil.c) ---- */

typedef struct {
	unsigned char *data;
	size_t len;
} hb_buf;

void hb_buf_free(hb_buf *buf);
/* Read a whole file; a name ending in `.gz` is decompressed with zlib. */
int hb_file_read(hb_buf *out, const char *path);
/* Write atomically: temporary file in the same folder, fsync, rename. */
/* Read bytes as they are; "-" is standard input. */
int hb_file_read_raw(hb_buf *out, const char *path);
int hb_stream_read(hb_buf *out, FILE *f, const char *name);
int hb_file_write_atomic(const char *path, const void *data, size_t len);
int hb_mkdir_p(const char *path);
int hb_is_dir(const char *path);
int hb_is_file(const char *path);
void hb_hex(char *out, const unsigned char *in, size_t len, int upper);
/* Parse hex (any case, even length) into out (cap bytes); returns byte count or -1. */
long hb_unhex(unsigned char *out, size_t cap, const char *hex, size_t hexlen);
void hb_sha256(unsigned char out[32], const void *data, size_t len);
int hb_sha256_file(char out_hex[65], const char *path);
char *hb_strdup(const char *s);
char *hb_path_join(const char *a, const char *b);
char *hb_sprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Run argv with stdout+stderr captured (NUL-terminated, caller frees *out_output);
 * returns the exit status (0..255), 128+signal, HB_ETIMEOUT after timeout_s (the child is
 * killed), or another negative hb error. */
int hb_run_capture(char **out_output, char *const argv[], unsigned timeout_s);

/* SHA256SUMS of every other file under a system's evidence folder (sha256sums.c). */
int hb_write_sha256sums(const char *sysdir);

/* ---- string lists (strlist.c) ---- */

/* Growable NULL-terminated string lists. add takes s (NULL s: out of memory); take hands the
 * array over (an empty list when nothing was added) and leaves l empty. */
typedef struct {
	char **v;
	size_t n, cap;
} hb_strlist;

int hb_strlist_add(hb_strlist *l, char *s);
char **hb_strlist_take(hb_strlist *l);
void hb_strv_free(char **v);
/* Copy of a NULL-terminated list (NULL v: an empty list); NULL when out of memory. */
char **hb_strv_dup(char *const *v);
/* A list that continues v (taken): its length counted, room for one more. */
hb_strlist hb_strlist_of(char **v);
/* Sort v[0..n) by strcmp. */
void hb_strv_sort(char **v, size_t n);
/* "v0,v1,…" of v[0..n), as the driver takes its sizes and calls (caller frees). */
char *hb_ull_list(const unsigned long long *v, size_t n);

/* ---- JSON evidence files and time stamps (jsonfile.c) ---- */

/* The current UTC time to the second: "2026-09-28T15:05:46Z". */
void hb_utc_now(char out[32]);
json_t *hb_json_str_or_null(const char *s);
/* v, or null when v < 0 (a figure that could not be read). */
json_t *hb_json_int_or_null(long long v);
/* j indented, in key order, with a final newline, written atomically. */
int hb_json_write(const char *path, json_t *j);

/* ---- notes and progress (note.c) ---- */

/* One line "hashbench: <prefix><message>" on f (NULL: nowhere); tty first clears a progress line
 * standing there. */
void hb_vnote(FILE *f, int tty, const char *prefix, const char *fmt, va_list ap);
void hb_note(FILE *f, int tty, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "hashbench: [done/total] what: result (when)", a line each; on a terminal "[done/total] what
 * result (when)" rewritten in place, cut to the terminal's width. when: NULL for none. */
void hb_progress(FILE *f, int tty, size_t done, size_t total, const char *what, const char *result,
	const char *when);
/* The word for n things: one when n is 1, else many ("1 record", "2 records"). */
const char *hb_plural(size_t n, const char *one, const char *many);

/* ---- the time a run of steps of a few kinds has left (eta.c) ---- */

#define HB_ETA_KINDS 8

/* Times in seconds on any one clock; kinds are the caller's small numbers (below HB_ETA_KINDS). */
typedef struct {
	size_t left[HB_ETA_KINDS];    /* steps of each kind still to come */
	size_t done[HB_ETA_KINDS];    /* steps of each kind handed back */
	double seconds[HB_ETA_KINDS]; /* the wall-clock time those took, hand-back to hand-back */
	double last_s;                /* when the last step was handed back (or the run started) */
} hb_eta;

/* An estimate with nothing planned, its clock starting at now_s. */
void hb_eta_start(hb_eta *out, double now_s);
/* steps more of kind to come. */
void hb_eta_plan(hb_eta *e, unsigned kind, size_t steps);
/* steps of kind handed back at now_s, the time since the last hand-back theirs; steps 0: work
 * outside the plan, its time charged to no kind. */
void hb_eta_done(hb_eta *e, unsigned kind, size_t steps, double now_s);
/* steps of kind that will not run after all: no longer to come, and no time taken. */
void hb_eta_drop(hb_eta *e, unsigned kind, size_t steps);
/* The seconds the steps to come will take: each kind's mean share so far times its steps to
 * come. *partial: set when a kind to come has none done yet (not counted: the figure is a lower
 * bound). -1 when no kind to come has a step done; 0 when nothing is to come. */
double hb_eta_left(const hb_eta *e, int *partial);
/* "12:34 elapsed, about 45:10 left", "…, at least 45:10 left" (partial), "…, estimating the time
 * left" (no estimate yet, or a partial one below a second), "12:34 elapsed" (nothing to come). */
void hb_eta_text(char *out, size_t cap, const hb_eta *e, double elapsed_s);
/* A duration to the second: m:ss below an hour, else h:mm:ss ("0:07", "12:34", "1:02:03"). */
void hb_eta_clock(char *out, size_t cap, double s);

/* ---- statistics (stats.c) ---- */

/* The median of v[0..n) (sorted in place); -1 when n is 0. */
double hb_median(double *v, size_t n);
/* The q quantile of v[0..n) by nearest rank (sorted in place); -1 when n is 0. */
double hb_quantile(double *v, size_t n, double q);
/* The median of a JSON array of numbers; -1 when it is empty (or out of memory). */
double hb_median_json(json_t *list);

/* ---- a ratio from runs timed in turns (paired.c): the blocks of two drivers side by side
 * (duet.c), or the compiler lines' try programs run in turns (supercop_pick.c) ---- */
typedef struct {
	double ratio, low, high;  /* the median of the pairs' ratios a/b and its 95 % interval */
	size_t pairs, passes;
	double fastest;           /* the fraction of the pairs the median is of (1: all) */
	double noise_pct;         /* the verdict's threshold */
	unsigned long long seed;  /* the bootstrap's draws */
	const char *bootstrap;    /* what it resampled: "passes" (whole), or a single pass's "pairs" */
	const char *verdict;      /* a against b: "faster", "slower" or "within noise" (static) */
} hb_paired;
/* The fraction of the pairs a campaign's paired ratio and compare's ratio are of: the fastest
 * fifth (docs/measurement-quality.md has the estimators compared). */
#define HB_PAIRED_FASTEST 0.2
/* One size's pairs of two drivers' results that took turns (duet.c): block k of a into a[k] and
 * block k of b into b[k], cycles per call, in the order timed, the pairs where both made calls,
 * at most cap of them; how many. */
size_t hb_paired_pairs(double *a, double *b, size_t cap, json_t *result_a, json_t *result_b,
	unsigned long long bytes);
/* The verdict on an interval [low, high] of a ratio a/b: "slower" when it lies wholly above
 * 1 + noise_pct %, "faster" when wholly below 1 - noise_pct %, else "within noise". */
const char *hb_paired_verdict(double low, double high, double noise_pct);
/* The ratio a/b of passes passes, pass p's n[p] pairs a[p][i] and b[p][i] (cycles per call of
 * two blocks timed one after the other): the median of the ratios of the fastest fraction of the
 * pairs (ranked by the product of each side's block over its fastest; 1: all pairs), its 95 %
 * interval a bootstrap over whole passes (over the pairs of a single pass), the verdict against
 * noise_pct; -1 when a time is not positive and finite, there is no pair, or fastest is not in
 * (0, 1]. */
int hb_paired_of(hb_paired *out, double *const *a, double *const *b, const size_t *n,
	size_t passes, double fastest, double noise_pct, unsigned long long seed);

/* ---- worker processes (pool.c): independent tasks in child processes, results handed back in
 * task order ---- */

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

/* ---- one campaign per timing CPU (cpulock.c) ---- */

char *hb_cpulock_path(int cpu);
/* Lock cpu for this campaign (who: what the next one is told); wait: block with a message on
 * msg until the other campaign ends, else fail at once. */
int hb_cpulock_take(int *out_fd, int cpu, int wait, const char *who, FILE *msg);
void hb_cpulock_release(int fd);

/* ---- user-mode emulation (emulation.c) ---- */

/* This build's architecture (x86_64, aarch64), NULL for another. */
const char *hb_own_arch(void);
/* The architecture a /proc/cpuinfo text describes, NULL when it cannot tell. */
const char *hb_cpuinfo_arch(const char *cpuinfo);
/* Whether this program runs under user-mode emulation: /proc/cpuinfo is another
 * architecture's (qemu-user shows the host's). */
int hb_emulated(void);

/* ---- the static size of a library (elfsize.c) ---- */

typedef struct {
	unsigned long long total, text, data;
} hb_elf_sizes;

int hb_elf_sizes_read(hb_elf_sizes *out, const char *path);
/* Sum of the PT_LOAD memory sizes of an ELF file. */
int hb_elf_load_size(unsigned long long *out, const char *path);

#endif
