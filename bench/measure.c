/* measure.c — hashbench-measure, the timing driver the campaign runs in a fresh sandboxed child
 * per pass of a library: pinned to one CPU, it loads only the library under test, applies the
 * seccomp filter it is given, times CryptHash on each message size in short blocks of calls,
 * the sizes in a shuffled order within every round, between two runs of the sentinel workload,
 * and writes the blocks, single-call samples, the involuntary context switches and the time the
 * host stole as one JSON object on its result descriptor. With --mode memory it makes one call and measures its exact memory (callmem.c);
 * with --mode sentinel it only times the sentinel. It links nothing but libc, so its memory
 * figures are the library's and the driver's alone. */
#define _GNU_SOURCE
#include <alloca.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hbtiming.h"

#define GUARD_LEN 64
#define GUARD_BYTE 0xA5
#define MAX_BLOCKS 1000
#define MAX_SIZES 64
#define MAX_SAMPLES 1000
#define S_PAGE 4096u

typedef int (*crypthash_fn)(int, const unsigned char *, unsigned long long, unsigned char *);

typedef enum { MODE_TIME, MODE_MEMORY, MODE_SENTINEL } S_mode;

typedef struct {
	const char *library, *counter;
	S_mode mode;
	int sentinel_runs;
	unsigned long long bytes[MAX_SIZES], calls[MAX_SIZES], seed, max_calls, order_seed;
	unsigned long long placement_seed; /* 0: the buffers where malloc puts them */
	size_t nbytes, ncalls;
	int digest_bits, cpu, blocks, samples;
	int result_fd, filter_fd, report_fd;
	int baton_fd, baton_lead; /* a partner driver on the same CPU: take turns (-1: alone) */
	double block_us, warmup_ms;
} S_args;

static volatile unsigned char S_sink; /* keeps every digest live */

/* The result, built in memory and written with write(2) alone: stdio's first write would make
 * system calls the filter refuses, and stdout belongs to the library. */
static struct {
	char data[1 << 20];
	size_t len;
	int fd;
} S_out = { .fd = 1 };

static void S_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void S_printf(const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(S_out.data + S_out.len, sizeof(S_out.data) - S_out.len, fmt, ap);
	va_end(ap);
	if (n > 0)
		S_out.len += (size_t)n < sizeof(S_out.data) - S_out.len ? (size_t)n :
			sizeof(S_out.data) - S_out.len - 1;
}

static void S_flush(void)
{
	size_t off = 0;
	while (off < S_out.len) {
		ssize_t n = write(S_out.fd, S_out.data + off, S_out.len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	S_out.len = 0;
}

static void S_fail(int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void S_fail(int code, const char *fmt, ...)
{
	char msg[1024];
	size_t i;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	S_out.len = 0;
	S_printf("{\"error\": \"");
	for (i = 0; msg[i]; i++) {
		unsigned char ch = (unsigned char)msg[i];
		if (ch == '"' || ch == '\\')
			S_printf("\\%c", ch);
		else if (ch < 0x20)
			S_printf("\\u%04x", ch);
		else
			S_printf("%c", ch);
	}
	S_printf("\"}\n");
	S_flush();
	_exit(code);
}

static unsigned long long S_number(const char *opt, const char *v)
{
	char *end;
	unsigned long long n;
	errno = 0;
	n = strtoull(v, &end, 0);
	if (errno || *end || end == v || v[0] == '-')
		S_fail(2, "%s %s: expected a non-negative number", opt, v);
	return n;
}

/* A comma-separated list of positive numbers. */
static size_t S_list(unsigned long long *out, const char *opt, const char *v)
{
	char copy[1024], *tok, *save = NULL;
	size_t n = 0;
	if (strlen(v) >= sizeof(copy))
		S_fail(2, "%s: too long a list", opt);
	strcpy(copy, v);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_SIZES)
			S_fail(2, "%s: more than %d values", opt, MAX_SIZES);
		out[n] = S_number(opt, tok);
		if (out[n] == 0)
			S_fail(2, "%s %s: expected positive numbers", opt, v);
		n++;
	}
	if (n == 0)
		S_fail(2, "%s %s: expected a list of numbers", opt, v);
	return n;
}

/* n bytes where --placement-seed puts them: at an offset within a page drawn from the seed, a
 * multiple of 16 (malloc's own alignment), so that each pass samples another placement of the
 * message and output in the cache sets and pages instead of the one the same allocations in the
 * same order give every process (Mytkowicz et al. 2009; Curtsinger & Berger 2013). Without a
 * seed (*rng 0), malloc's. Never freed: the driver ends with the pass. */
static unsigned char *S_place(size_t n, unsigned long long *rng, unsigned *offset)
{
	void *base;
	*offset = 0;
	if (!*rng)
		return malloc(n ? n : 1);
	*offset = (unsigned)(hb_splitmix64(rng) % (S_PAGE / 16)) * 16;
	if (posix_memalign(&base, S_PAGE, n + *offset + 1) != 0)
		return NULL;
	return (unsigned char *)base + *offset;
}

/* Turns with a partner driver pinned to the same CPU (hashbench compare): each waits for the
 * baton before a turn (a warm-up, a timed block, the single calls) and hands it over after, so
 * the two never run at once and the hand-over lies outside every timed region. A partner that
 * has ended (end of file, an error) leaves this driver to go on alone, and the result says so. */
static struct {
	int fd, lead, lost;
	unsigned long long turns;
} S_baton = { .fd = -1 };

static void S_turn_wait(void)
{
	char c;
	ssize_t n;
	if (S_baton.fd < 0)
		return;
	S_baton.turns++;
	if (S_baton.lead) {
		S_baton.lead = 0;
		return;
	}
	do
		n = read(S_baton.fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1) {
		S_baton.fd = -1;
		S_baton.lost = 1;
	}
}

/* last: this driver's last turn, after which a partner that has already ended is no loss */
static void S_turn_pass(int last)
{
	char c = 'b';
	ssize_t n;
	if (S_baton.fd < 0)
		return;
	do
		n = write(S_baton.fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1 && !last) {
		S_baton.fd = -1;
		S_baton.lost = 1;
	}
}

/* The message bytes: splitmix64 from a recorded seed, little-endian, so every record can be
 * repeated byte for byte. */
static void S_fill(unsigned char *buf, unsigned long long n, unsigned long long seed)
{
	unsigned long long i, x = seed;
	for (i = 0; i < n; i += 8) {
		unsigned long long z = hb_splitmix64(&x);
		unsigned j;
		for (j = 0; j < 8 && i + j < n; j++)
			buf[i + j] = (unsigned char)(z >> (8 * j));
	}
}

/* A number of /proc/self/status (kB or a count), read with pread from a descriptor opened
 * before the lockdown. */
static long S_status_value(int fd, const char *field)
{
	char text[4096], *p;
	size_t n = strlen(field);
	ssize_t len;
	if (fd < 0 || (len = pread(fd, text, sizeof(text) - 1, 0)) <= 0)
		return -1;
	text[len] = 0;
	for (p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, field, n) == 0 && p[n] == ':')
			return strtol(p + n + 1, NULL, 10);
	return -1;
}

static void S_check_guards(const unsigned char *buf, size_t outlen, const char *when)
{
	size_t i;
	for (i = 0; i < GUARD_LEN; i++)
		if (buf[i] != GUARD_BYTE || buf[GUARD_LEN + outlen + i] != GUARD_BYTE)
			S_fail(3, "CryptHash wrote outside its %zu-byte output buffer (%s)", outlen, when);
}

static void S_parse(S_args *a, int argc, char **argv)
{
	int i;
	memset(a, 0, sizeof(*a));
	a->counter = "auto";
	a->blocks = 24;
	a->block_us = 1000;
	a->warmup_ms = 10;
	a->samples = 34;
	a->max_calls = 20000;
	a->seed = 0x6861736862656e63ULL; /* "hashbenc" */
	a->cpu = -1;
	a->result_fd = 1;
	a->filter_fd = -1;
	a->report_fd = 2;
	a->baton_fd = -1;
	for (i = 1; i < argc; i++) {
		const char *opt = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v)
			S_fail(2, "%s: missing value", opt);
		i++;
		if (strcmp(opt, "--mode") == 0) {
			if (strcmp(v, "time") == 0)
				a->mode = MODE_TIME;
			else if (strcmp(v, "memory") == 0)
				a->mode = MODE_MEMORY;
			else if (strcmp(v, "sentinel") == 0)
				a->mode = MODE_SENTINEL;
			else
				S_fail(2, "--mode %s: expected time, memory or sentinel", v);
		} else if (strcmp(opt, "--sentinel-runs") == 0)
			a->sentinel_runs = (int)S_number(opt, v);
		else if (strcmp(opt, "--library") == 0)
			a->library = v;
		else if (strcmp(opt, "--counter") == 0)
			a->counter = v;
		else if (strcmp(opt, "--bytes") == 0)
			a->nbytes = S_list(a->bytes, opt, v);
		else if (strcmp(opt, "--calls") == 0)
			a->ncalls = S_list(a->calls, opt, v);
		else if (strcmp(opt, "--digest-bits") == 0)
			a->digest_bits = (int)S_number(opt, v);
		else if (strcmp(opt, "--cpu") == 0)
			a->cpu = (int)S_number(opt, v);
		else if (strcmp(opt, "--blocks") == 0)
			a->blocks = (int)S_number(opt, v);
		else if (strcmp(opt, "--block-us") == 0)
			a->block_us = (double)S_number(opt, v);
		else if (strcmp(opt, "--samples") == 0)
			a->samples = (int)S_number(opt, v);
		else if (strcmp(opt, "--order-seed") == 0)
			a->order_seed = S_number(opt, v);
		else if (strcmp(opt, "--placement-seed") == 0)
			a->placement_seed = S_number(opt, v);
		else if (strcmp(opt, "--baton-fd") == 0)
			a->baton_fd = (int)S_number(opt, v);
		else if (strcmp(opt, "--baton-lead") == 0)
			a->baton_lead = S_number(opt, v) != 0;
		else if (strcmp(opt, "--warmup-ms") == 0)
			a->warmup_ms = (double)S_number(opt, v);
		else if (strcmp(opt, "--max-calls") == 0)
			a->max_calls = S_number(opt, v);
		else if (strcmp(opt, "--seed") == 0)
			a->seed = S_number(opt, v);
		else if (strcmp(opt, "--result-fd") == 0)
			S_out.fd = a->result_fd = (int)S_number(opt, v);
		else if (strcmp(opt, "--filter-fd") == 0)
			a->filter_fd = (int)S_number(opt, v);
		else if (strcmp(opt, "--report-fd") == 0)
			a->report_fd = (int)S_number(opt, v);
		else
			S_fail(2, "%s: unknown option", opt);
	}
	if (a->mode == MODE_SENTINEL ? a->sentinel_runs < 1 || a->sentinel_runs > 1000 :
		!a->library || a->digest_bits <= 0 || a->nbytes == 0)
		S_fail(2, "usage: hashbench-measure [--mode time|memory] --library LIB --bytes N[,N…] "
			"--digest-bits D [--cpu N] [--counter NAME] [--blocks B] [--block-us US] "
			"[--warmup-ms MS] [--max-calls N] [--calls N[,N…]] [--samples K] [--order-seed N] "
			"[--placement-seed N] [--baton-fd FD [--baton-lead 1]] "
			"[--seed N] [--result-fd FD] [--filter-fd FD] [--report-fd FD], or "
			"hashbench-measure --mode sentinel --sentinel-runs 1..1000 [--cpu N] [--counter NAME]");
	if (a->blocks < 1 || a->blocks > MAX_BLOCKS)
		S_fail(2, "--blocks %d: expected 1 to %d", a->blocks, MAX_BLOCKS);
	if (a->samples < 0 || a->samples > MAX_SAMPLES)
		S_fail(2, "--samples %d: expected 0 to %d", a->samples, MAX_SAMPLES);
	if (a->ncalls && a->ncalls != a->nbytes)
		S_fail(2, "--calls: expected one number per message size (%zu)", a->nbytes);
	if (a->mode == MODE_MEMORY && a->nbytes != 1)
		S_fail(2, "--mode memory: expected one message size");
}

/* --mode sentinel: the sentinel alone, runs times, on the pinned CPU. */
static void S_sentinel_only(const S_args *a, hb_counter *counter)
{
	int k;
	for (k = 0; k < 4; k++) /* about as long as a record's warm-up: the core up to its clock */
		(void)hb_sentinel_time(counter);
	S_printf("{\"counter\": \"%s\", \"cpu\": %d, \"sentinel\": [", hb_counter_name(counter),
		a->cpu);
	for (k = 0; k < a->sentinel_runs; k++) {
		hb_sentinel_reading s = hb_sentinel_time(counter);
		S_printf("%s{\"cycles\": %llu, \"ns\": %llu}", k ? ", " : "",
			(unsigned long long)s.cycles, (unsigned long long)s.ns);
	}
	S_printf("]}\n");
	S_flush();
	_exit(0);
}

typedef struct {
	crypthash_fn fn;
	int digest_bits;
	const unsigned char *msg;
	unsigned long long msg_bits;
	unsigned char *out;
} S_call_args;

static int S_one_call(void *arg)
{
	const S_call_args *c = arg;
	return c->fn(c->digest_bits, c->msg, c->msg_bits, c->out);
}

/* --mode memory: one call, the first after loading, with its exact memory (callmem.c). */
static void S_memory_call(const S_call_args *c, size_t outlen)
{
	hb_callmem m;
	char err[256];
	int rc = 0;
	if (hb_callmem_run(&m, &rc, S_one_call, (void *)c, err, sizeof(err)) != 0)
		S_fail(3, "%s", err);
	if (rc != 0)
		S_fail(3, "CryptHash returned non-zero in the memory call");
	S_check_guards(c->out - GUARD_LEN, outlen, "memory call");
	S_printf("{\"memory\": {\"stack_bytes\": %llu, \"stack_driver_bytes\": %llu, "
		"\"stack_region_bytes\": %u, \"heap_peak_bytes\": %llu, \"heap_allocations\": %llu, "
		"\"mmap_bytes\": %llu, \"heap_untracked\": %s, \"redirected\": \"%s\"}}\n",
		m.stack_bytes, m.stack_driver_bytes, HB_CALLMEM_STACK_BYTES, m.heap_peak_bytes,
		m.heap_allocations, m.mmap_bytes, m.heap_untracked ? "true" : "false", m.redirected);
	S_flush();
	fflush(stdout);
	fflush(stderr);
	_exit(0);
}

/* One message size of a pass: its message, calibration and what was timed. */
typedef struct {
	unsigned long long bytes, msg_bits, per_block, warm_calls;
	uint64_t warm_ns;
	unsigned char *msg;
	uint64_t *cycles, *nanos, *samples;
} S_size;


/* The steal time of cpu (or of all CPUs, cpu < 0) in clock ticks, from /proc/stat opened before
 * the lockdown: the time the host ran something else while this guest wanted the CPU. */
static long long S_steal_ticks(int fd, int cpu)
{
	static char text[65536];
	char key[32], *p;
	ssize_t len;
	long long v[8];
	if (fd < 0 || (len = pread(fd, text, sizeof(text) - 1, 0)) <= 0)
		return -1;
	text[len] = 0;
	if (cpu >= 0)
		snprintf(key, sizeof(key), "cpu%d ", cpu);
	else
		snprintf(key, sizeof(key), "cpu ");
	for (p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, key, strlen(key)) == 0)
			break;
	if (!p || sscanf(p + strlen(key), "%lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1],
			&v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return -1;
	return v[7];
}

static void S_call_checked(crypthash_fn fn, const S_args *a, const S_size *z, unsigned char *out,
	size_t outlen, const char *when)
{
	if (fn(a->digest_bits, z->msg, z->msg_bits, out + GUARD_LEN) != 0)
		S_fail(3, "CryptHash returned non-zero for a %llu-byte message (%s)", z->bytes, when);
	S_sink ^= out[GUARD_LEN];
	S_check_guards(out, outlen, when);
}

/* Warm each size up for warmup_ms and set its calls per block (given, or from the warm-up). */
static void S_warm(crypthash_fn fn, const S_args *a, S_size *sz, unsigned char *out, size_t outlen)
{
	size_t k;
	for (k = 0; k < a->nbytes; k++) {
		S_size *z = &sz[k];
		uint64_t t0 = hb_now_ns(), t1;
		do {
			S_call_checked(fn, a, z, out, outlen, "warm-up");
			z->warm_calls++;
			t1 = hb_now_ns();
		} while ((double)(t1 - t0) < a->warmup_ms * 1e6);
		z->warm_ns = t1 - t0;
		z->per_block = a->ncalls ? a->calls[k] : hb_calls_per_round((double)z->warm_ns /
			(double)z->warm_calls, a->block_us * 1e3, a->max_calls);
	}
}

/* The timed blocks: in every round one block of each size, the sizes in a shuffled order, so
 * that a slow moment of the machine lands on all of them alike. */
static void S_blocks(crypthash_fn fn, const S_args *a, S_size *sz, hb_counter *counter,
	unsigned char *out, size_t outlen)
{
	unsigned long long rng = a->order_seed, i;
	size_t order[MAX_SIZES], k;
	int r;
	for (k = 0; k < a->nbytes; k++)
		order[k] = k;
	for (r = 0; r < a->blocks; r++) {
		for (k = a->nbytes; k > 1; k--) {
			size_t j = (size_t)(hb_splitmix64(&rng) % k), t = order[k - 1];
			order[k - 1] = order[j];
			order[j] = t;
		}
		for (k = 0; k < a->nbytes; k++) {
			S_size *z = &sz[order[k]];
			uint64_t t0, c0, c1, t1;
			int rc = 0;
			S_turn_wait();
			t0 = hb_now_ns();
			c0 = hb_counter_read(counter);
			for (i = 0; i < z->per_block; i++) {
				rc |= fn(a->digest_bits, z->msg, z->msg_bits, out + GUARD_LEN);
				S_sink ^= out[GUARD_LEN];
			}
			c1 = hb_counter_read(counter);
			t1 = hb_now_ns();
			if (rc != 0)
				S_fail(3, "CryptHash returned non-zero for a %llu-byte message in block %d",
					z->bytes, r + 1);
			S_check_guards(out, outlen, "timed block");
			S_turn_pass(0);
			z->cycles[r] = c1 - c0;
			z->nanos[r] = t1 - t0;
		}
	}
}

/* Single calls, each read with the counter: the spread of the figure. */
static void S_singles(crypthash_fn fn, const S_args *a, S_size *sz, hb_counter *counter,
	unsigned char *out, size_t outlen)
{
	size_t k;
	int r;
	for (k = 0; k < a->nbytes; k++)
		for (r = 0; r < a->samples; r++) {
			uint64_t c0 = hb_counter_read(counter), c1;
			int rc = fn(a->digest_bits, sz[k].msg, sz[k].msg_bits, out + GUARD_LEN);
			c1 = hb_counter_read(counter);
			S_sink ^= out[GUARD_LEN];
			if (rc != 0)
				S_fail(3, "CryptHash returned non-zero in a single timed call");
			sz[k].samples[r] = c1 - c0;
		}
	S_check_guards(out, outlen, "single calls");
}

/* Where the buffers lay and how the turns went, when either was asked for. */
static void S_print_place(const S_args *a, unsigned out_offset, unsigned stack_offset,
	const unsigned *msg_offset)
{
	size_t k;
	if (a->placement_seed) {
		S_printf(", \"placement\": {\"seed\": %llu, \"output_offset\": %u, "
			"\"stack_offset\": %u, \"message_offsets\": [", a->placement_seed, out_offset,
			stack_offset);
		for (k = 0; k < a->nbytes; k++)
			S_printf("%s%u", k ? ", " : "", msg_offset[k]);
		S_printf("]}");
	}
	if (a->baton_fd >= 0)
		S_printf(", \"baton\": {\"turns\": %llu, \"partner_lost\": %s}", S_baton.turns,
			S_baton.lost ? "true" : "false");
}

static void S_print_size(const S_args *a, const S_size *z)
{
	int r;
	S_printf("{\"bytes\": %llu, \"calibration\": {\"warmup_calls\": %llu, \"warmup_ns\": %llu, "
		"\"calls_per_round\": %llu, \"round_ms\": %g, \"max_calls\": %llu, \"given\": %s}, "
		"\"trials\": [", z->bytes, z->warm_calls, (unsigned long long)z->warm_ns, z->per_block,
		a->block_us / 1e3, a->max_calls, a->ncalls ? "true" : "false");
	for (r = 0; r < a->blocks; r++)
		S_printf("%s{\"iterations\": %llu, \"cycles\": %llu, \"ns\": %llu}", r ? ", " : "",
			z->per_block, (unsigned long long)z->cycles[r], (unsigned long long)z->nanos[r]);
	S_printf("], \"samples\": [");
	for (r = 0; r < a->samples; r++)
		S_printf("%s%llu", r ? ", " : "", (unsigned long long)z->samples[r]);
	S_printf("]}");
}

int main(int argc, char **argv)
{
	S_args a;
	hb_counter counter;
	crypthash_fn fn;
	void *handle, *sym;
	unsigned char *out;
	size_t outlen, k;
	S_size sz[MAX_SIZES];
	long baseline_rss, peak_rss, switches0, switches1;
	long long steal0, steal1;
	hb_sentinel_reading sent_before, sent_after;
	const char *started = getenv("HB_DRIVER_START");
	void *filter = NULL;
	unsigned short filter_len = 0;
	int status_fd, stat_fd;
	long ticks_per_s;
	unsigned long long place = 0;
	unsigned out_offset = 0, msg_offset[MAX_SIZES] = { 0 }, stack_offset = 0;
	volatile unsigned char *stack_pad;

	S_parse(&a, argc, argv);
	S_baton.fd = a.baton_fd;
	S_baton.lead = a.baton_lead;
	if (S_baton.fd >= 0)
		signal(SIGPIPE, SIG_IGN); /* a partner gone is an error on write, not the end */
	{
		/* a crash of the library must end this process with its signal (a sanitizer's
		 * handler, for one, would turn it into an exit status) */
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
		size_t f;
		for (f = 0; f < sizeof(fatal) / sizeof(fatal[0]); f++)
			signal(fatal[f], SIG_DFL);
	}
	if (a.cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(a.cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) != 0)
			S_fail(3, "cannot pin to CPU %d: %s", a.cpu, strerror(errno));
	}
	if (hb_counter_open(&counter, a.counter) != 0)
		S_fail(3, "counter %s is not available on this machine", a.counter);
	if (a.mode == MODE_SENTINEL)
		S_sentinel_only(&a, &counter);

	outlen = ((size_t)a.digest_bits + 7) / 8;
	place = a.placement_seed;
	out = S_place(outlen + 2 * GUARD_LEN, &place, &out_offset);
	memset(sz, 0, sizeof(sz));
	for (k = 0; k < a.nbytes; k++) {
		S_size *z = &sz[k];
		z->bytes = a.bytes[k];
		z->msg_bits = 8ULL * z->bytes;
		z->msg = S_place(z->bytes, &place, &msg_offset[k]);
		z->cycles = malloc((size_t)a.blocks * sizeof(uint64_t));
		z->nanos = malloc((size_t)a.blocks * sizeof(uint64_t));
		z->samples = malloc(((size_t)a.samples + 1) * sizeof(uint64_t));
		if (!z->msg || !z->cycles || !z->nanos || !z->samples)
			S_fail(3, "out of memory for a %llu-byte message", z->bytes);
		S_fill(z->msg, z->bytes, a.seed);
	}
	if (!out)
		S_fail(3, "out of memory");
	memset(out, GUARD_BYTE, outlen + 2 * GUARD_LEN);
	status_fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	stat_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	ticks_per_s = sysconf(_SC_CLK_TCK);
	if (a.filter_fd >= 0 && hb_lockdown_read(&filter, &filter_len, a.filter_fd) != 0)
		S_fail(3, "cannot read the seccomp filter: %s", strerror(errno));

	handle = dlopen(a.library, RTLD_NOW | RTLD_LOCAL);
	if (!handle)
		S_fail(3, "cannot load %s: %s", a.library, dlerror());
	sym = dlsym(handle, "CryptHash");
	if (!sym)
		S_fail(3, "%s has no CryptHash function", a.library);
	*(void **)&fn = sym;
	if (a.mode == MODE_MEMORY) {
		char err[256];
		if (hb_callmem_prepare(handle, err, sizeof(err)) != 0)
			S_fail(3, "%s: %s", a.library, err);
	}
	baseline_rss = S_status_value(status_fd, "VmRSS");
	/* the library's constructors have run: from here on, only the calls hashing needs */
	if (filter && hb_lockdown(filter, filter_len, a.report_fd) != 0)
		S_fail(3, "cannot apply the seccomp filter: %s", strerror(errno));
	if (a.mode == MODE_MEMORY) {
		S_call_args c = { fn, a.digest_bits, sz[0].msg, sz[0].msg_bits, out + GUARD_LEN };
		S_memory_call(&c, outlen);
	}

	/* the stack the calls run on, lowered by an offset of its own from the same seed: the third
	 * placement that repeats in every process without it */
	if (a.placement_seed) {
		stack_offset = (unsigned)(hb_splitmix64(&place) % (S_PAGE / 16)) * 16;
		stack_pad = alloca(stack_offset + 16);
		stack_pad[0] = 0;
	}
	/* warm-up, which also times calls for the calibration and brings the core to its clock */
	S_turn_wait();
	S_warm(fn, &a, sz, out, outlen);
	/* what the machine did meanwhile: the machine's speed just before and just after the timed
	 * calls, the times this process was switched out against its will, the host's steal time
	 * (the campaign judges them) */
	switches0 = S_status_value(status_fd, "nonvoluntary_ctxt_switches");
	steal0 = S_steal_ticks(stat_fd, a.cpu);
	sent_before = hb_sentinel_time(&counter);
	S_turn_pass(0);
	S_blocks(fn, &a, sz, &counter, out, outlen);
	S_turn_wait();
	S_singles(fn, &a, sz, &counter, out, outlen);
	sent_after = hb_sentinel_time(&counter);
	switches1 = S_status_value(status_fd, "nonvoluntary_ctxt_switches");
	steal1 = S_steal_ticks(stat_fd, a.cpu);
	peak_rss = S_status_value(status_fd, "VmHWM");
	S_turn_pass(1);

	/* printed only now, so a failure leaves one error object and nothing else */
	S_printf("{\"counter\": \"%s\", \"cpu\": %d, \"message_seed\": %llu, \"order_seed\": %llu, "
		"\"sizes\": [", hb_counter_name(&counter), a.cpu, a.seed, a.order_seed);
	for (k = 0; k < a.nbytes; k++) {
		S_printf("%s", k ? ", " : "");
		S_print_size(&a, &sz[k]);
	}
	S_printf("]");
	S_print_place(&a, out_offset, stack_offset, msg_offset);
	S_printf(", \"sentinel\": {\"before\": {\"cycles\": %llu, \"ns\": %llu}, "
		"\"after\": {\"cycles\": %llu, \"ns\": %llu}}", (unsigned long long)sent_before.cycles,
		(unsigned long long)sent_before.ns, (unsigned long long)sent_after.cycles,
		(unsigned long long)sent_after.ns);
	if (started && (strcmp(started, "execveat") == 0 || strcmp(started, "/proc/self/fd") == 0))
		S_printf(", \"driver_start\": \"%s\"", started); /* how hashbench started it */
	if (switches0 >= 0 && switches1 >= switches0)
		S_printf(", \"involuntary_switches\": %ld", switches1 - switches0);
	if (steal0 >= 0 && steal1 >= steal0 && ticks_per_s > 0)
		S_printf(", \"steal_ms\": %g", (double)(steal1 - steal0) * 1e3 / (double)ticks_per_s);
	S_printf(", \"resources\": {\"baseline_rss_kib\": %ld, \"peak_rss_kib\": %ld}}\n",
		baseline_rss, peak_rss);
	S_flush();
	if (!filter)
		hb_counter_close(&counter); /* close(2) is not among the calls the filter allows */
	/* the result is out: no destructors or atexit work of the library (OpenSSL's clean-up, for
	 * one) under the filter, only what it printed */
	fflush(stdout);
	fflush(stderr);
	_exit(0);
}
