/* genutil.h — the generator's ground floor: errors, files, SHA-256, string vectors and clocks
 * (genutil.c), gzip twins (gztwin.c), and every number and environment format of the pages with
 * the derived figures of one timing record (format.c). Nothing here knows the evidence or the
 * site. */
#ifndef HG_GENUTIL_H
#define HG_GENUTIL_H

#include <stddef.h>
#include <stdio.h>

/* ---- errors and files (genutil.c), gzip twins (gztwin.c) ---- */

int hg_error_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *hg_error_last(void);
char *hg_xstrdup(const char *s);
char *hg_xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "a/b", or "a/b/c" when c is not NULL: hg_xprintf's result without its cost, for the paths
 * made once per evidence file */
char *hg_xpath(const char *a, const char *b, const char *c);
int hg_read_file(char **out, size_t *len, const char *path);
int hg_write_file(const char *path, const void *data, size_t len);
/* All of data to fd, again after a short write or EINTR; -1 with errno when a write fails. */
int hg_write_all(int fd, const void *data, size_t len);
/* Write path and path.gz (gzip, no timestamp in the header): up to 4 MiB deflated at level 6
 * by libdeflate, files over 4 MiB (the site's downloads) at level 1 by zlib. */
int hg_write_with_gz(const char *path, const void *data, size_t len);
/* Free the calling thread's compressor; a thread that wrote twins calls it before it ends. */
void hg_gztwin_release(void);
/* The same two files written as a stream, in bounded memory (gztwin.c): what is written to the
 * stream becomes path and path.gz, byte for byte what hg_write_with_gz writes for the same text.
 * NULL (the error set) when either cannot be created; hg_gztwin_close returns -1 when a write
 * failed, the error naming the file. */
FILE *hg_gztwin_open(const char *path);
int hg_gztwin_close(FILE *f);
/* The size and SHA-256 of a file (not of its twin). */
typedef struct {
	unsigned long long bytes;
	char sha256[65];
} hg_filesum;
/* hg_gztwin_open, and when hg_gztwin_close returns 0, *sum (which must live until then) holds
 * the size and SHA-256 of path, computed from the bytes as they were written, not read back. */
FILE *hg_gztwin_open_sum(const char *path, hg_filesum *sum);
int hg_mkdirs(const char *path);
void hg_sha256_hex(char out[65], const void *data, size_t len);

/* ---- reading ahead (prefetch.c) ---- */

/* The folders of item i whose files are read ahead: up to max paths into out (malloc'd, freed
 * by the reader); returns how many. */
#define HG_PREFETCH_MAX 8
typedef size_t (*hg_prefetch_folders)(void *ctx, size_t i, char **out, size_t max);
typedef struct hg_prefetch hg_prefetch;
/* A thread that asks the kernel for the files of items 0..n-1 in order (posix_fadvise
 * WILLNEED: it never waits for them), never more than ahead items past *progress, the item the
 * readers reached. NULL when out of memory (nothing is read ahead then). */
hg_prefetch *hg_prefetch_start(size_t n, size_t ahead, const _Atomic size_t *progress,
	hg_prefetch_folders folders, void *ctx);
/* Stop it (wherever it is) and wait for it. */
void hg_prefetch_stop(hg_prefetch *p);
/* The SHA-256 of values fed one by one (strings with their end, numbers as this machine holds
 * them): digests of what a page shows, for the rebuild cache, never written into the site.
 * hg_md_hex writes the hex digest and frees m. */
typedef struct hg_md hg_md;
hg_md *hg_md_new(void);
void hg_md_bytes(hg_md *m, const void *data, size_t len);
void hg_md_str(hg_md *m, const char *s);
void hg_md_num(hg_md *m, double v);
void hg_md_int(hg_md *m, long long v);
void hg_md_hex(hg_md *m, char out[65]);
int hg_rm_rf(const char *path);
/* Append s to the NULL-terminated vector *v of *n strings; free it with hg_strv_free. */
void hg_strv_push(char ***v, size_t *n, char *s);
void hg_strv_free(char **v);
/* qsort comparison of two char * */
int hg_cmp_str(const void *a, const void *b);
/* The word for n things: one when n is 1, else many ("1 system", "2 systems"). */
const char *hg_plural(size_t n, const char *one, const char *many);
/* Seconds on the monotonic clock, and of CPU (user and system) used by every thread of the
 * process so far: a step's cost is the difference across it. */
double hg_wall_seconds(void);
double hg_cpu_seconds(void);

/* ---- where the templates are by default (templatesdir.c): an installed tree's, found from the
 * executable, or the checkout's it was built from (borrowed) ---- */
const char *hg_templates_default(void);

/* ---- a double in full (shortest.c) ---- */

/* v (finite) as the shortest of %.15g, %.16g and %.17g that strtod reads back as v, into b (n
 * bytes, 32 are enough): full precision without a blind %.17g's noise digits. */
void hg_num_shortest(char *b, size_t n, double v);

/* ---- the formats of the pages (format.c) ----
 *
 * In one place, so the HTML and the Markdown renderer print exactly the same strings
 * (DESIGN.md, "Derived figures and how they are printed"). Plain C: no allocation, no library
 * beyond libc and libm. */

/* Every hg_fmt_ function writes a NUL-terminated UTF-8 string into buf (size n, at least 64 for
 * the outputs to be whole; shorter buffers get a truncated but terminated string) and returns
 * buf. Rounding is half away from zero, on the decimal value of the argument; where a unit
 * depends on the magnitude it is chosen after rounding. A value the evidence could not give
 * (NULL string, negative count) prints as "not available". */

/* "32 B" */
char *hg_fmt_message(char *buf, size_t n, unsigned long long bytes);
/* "3061", "15.4 k", "1.55 M" */
char *hg_fmt_cycles(char *buf, size_t n, double mean_cycles);
/* one decimal: "95.7" */
char *hg_fmt_cpb(char *buf, size_t n, double cycles_per_byte);
/* A figure with its interval's half-width in the figure's own unit and decimals: "9.2 ± 0.1",
 * "1183 ± 5", "657.6 k ± 2.6 k"; the figure alone when half is negative or not finite. */
char *hg_fmt_cpb_pm(char *buf, size_t n, double cycles_per_byte, double half);
char *hg_fmt_cycles_pm(char *buf, size_t n, double mean_cycles, double half);
/* A ratio with its interval [low, high] as ± the larger distance from the ratio, in two decimals
 * (more where that would read 0.00, at most four), times its suffix: "1.19 ± 0.01×"; without an
 * interval (low negative) as before intervals, "%.2f" and times: "1.19×". */
char *hg_fmt_ratio(char *buf, size_t n, double ratio, double low, double high, const char *times);
/* three significant digits, trailing zeros dropped: "961 ns", "1.14 µs", "28 µs", "1.13 ms" */
char *hg_fmt_time(char *buf, size_t n, double ns);
/* one decimal: "28.1" */
char *hg_fmt_mbps(char *buf, size_t n, double mbps);
/* "100000 (5 × 20000)", or "12255 (5 rounds)" when the rounds differ in calls */
char *hg_fmt_n(char *buf, size_t n, const unsigned long long *iterations, size_t rounds);
/* "1404 KiB" */
char *hg_fmt_kib(char *buf, size_t n, long long kib);
/* first 16 hex digits and "…": "c5bd8caeb1f991d0…" */
char *hg_fmt_sha_short(char *buf, size_t n, const char *hex);
/* kHz as GHz with two decimals: 2710000 → "2.71" */
char *hg_fmt_ghz(char *buf, size_t n, long long khz);
/* a rate in Hz to four significant digits, trailing zeros dropped: 62500000 → "62.5 MHz",
 * 2710000000 → "2.71 GHz", 2445399543 → "2.445 GHz" */
char *hg_fmt_hz(char *buf, size_t n, double hz);
/* the clock row of the environment table, e.g. "fixed 2.71 GHz (governor performance,
 * minimum = maximum), boost off, SMT none"; NULL strings and -1 frequencies are "not available" */
char *hg_fmt_clock(char *buf, size_t n, const char *governor, long long min_khz,
		   long long max_khz, const char *boost_name, const char *boost_state,
		   const char *smt);
/* "2026-09-25T10:02:21Z" → "2026-09-25T10:02:21"; other strings are copied unchanged */
char *hg_fmt_utc(char *buf, size_t n, const char *iso);

/* The derived figures of one timing record. */
typedef struct hg_figures_t {
	double mean_cycles;       /* Σcycles / Σiterations */
	double cycles_per_byte;   /* mean_cycles / message bytes */
	double mean_ns;           /* Σns / Σiterations */
	double mbps;              /* message bytes / mean time, MB = 10^6 bytes */
	unsigned long long n;     /* Σiterations */
} hg_figures_t;

/* Compute the figures of `rounds` trials (calls, counter cycles and nanoseconds per round).
 * Returns 0, or -1 with *out zeroed when nothing can be divided: no rounds, no bytes, no calls,
 * no time, a NULL array, or a sum that overflows 64 bits. */
int hg_figures(hg_figures_t *out, const unsigned long long *it, const unsigned long long *cy,
	       const unsigned long long *ns, size_t rounds, unsigned long long message_bytes);

#endif
