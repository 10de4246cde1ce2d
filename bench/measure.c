/* measure.c — hashbench-measure, the timing driver the campaign runs in a fresh child per
 * record: pinned to one CPU, it loads only the library under test, times CryptHash on one message
 * size in calibrated rounds, and prints the trials and memory figures as one JSON object.
 * It links nothing but libc, so its memory figures are the library's and the driver's alone. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counter.h"

#define GUARD_LEN 64
#define GUARD_BYTE 0xA5
#define MAX_ROUNDS 1000
#define NSAMPLES 101

typedef int (*crypthash_fn)(int, const unsigned char *, unsigned long long, unsigned char *);

typedef struct {
	const char *library, *counter;
	unsigned long long bytes, seed, max_calls;
	int digest_bits, cpu, rounds;
	double round_ms, warmup_ms;
} S_args;

static volatile unsigned char S_sink; /* keeps every digest live */

static void S_fail(int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void S_fail(int code, const char *fmt, ...)
{
	char msg[1024];
	size_t i;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("{\"error\": \"");
	for (i = 0; msg[i]; i++) {
		unsigned char ch = (unsigned char)msg[i];
		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	printf("\"}\n");
	fflush(stdout);
	exit(code);
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

/* The message bytes: splitmix64 from a recorded seed, little-endian, so every record can be
 * repeated byte for byte. */
static void S_fill(unsigned char *buf, unsigned long long n, unsigned long long seed)
{
	unsigned long long i, x = seed;
	for (i = 0; i < n; i += 8) {
		unsigned long long z = (x += 0x9e3779b97f4a7c15ULL);
		unsigned j;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		for (j = 0; j < 8 && i + j < n; j++)
			buf[i + j] = (unsigned char)(z >> (8 * j));
	}
}

static long S_status_kib(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	size_t n = strlen(field);
	long v = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, field, n) == 0 && line[n] == ':') {
			v = strtol(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
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
	a->rounds = 5;
	a->round_ms = 600;
	a->warmup_ms = 100;
	a->max_calls = 20000;
	a->seed = 0x6861736862656e63ULL; /* "hashbenc" */
	a->cpu = -1;
	for (i = 1; i < argc; i++) {
		const char *opt = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v)
			S_fail(2, "%s: missing value", opt);
		i++;
		if (strcmp(opt, "--library") == 0)
			a->library = v;
		else if (strcmp(opt, "--counter") == 0)
			a->counter = v;
		else if (strcmp(opt, "--bytes") == 0)
			a->bytes = S_number(opt, v);
		else if (strcmp(opt, "--digest-bits") == 0)
			a->digest_bits = (int)S_number(opt, v);
		else if (strcmp(opt, "--cpu") == 0)
			a->cpu = (int)S_number(opt, v);
		else if (strcmp(opt, "--rounds") == 0)
			a->rounds = (int)S_number(opt, v);
		else if (strcmp(opt, "--round-ms") == 0)
			a->round_ms = (double)S_number(opt, v);
		else if (strcmp(opt, "--warmup-ms") == 0)
			a->warmup_ms = (double)S_number(opt, v);
		else if (strcmp(opt, "--max-calls") == 0)
			a->max_calls = S_number(opt, v);
		else if (strcmp(opt, "--seed") == 0)
			a->seed = S_number(opt, v);
		else
			S_fail(2, "%s: unknown option", opt);
	}
	if (!a->library || a->digest_bits <= 0 || a->bytes == 0)
		S_fail(2, "usage: hashbench-measure --library LIB --bytes N --digest-bits D "
			"[--cpu N] [--counter NAME] [--rounds R] [--round-ms MS] [--warmup-ms MS] "
			"[--max-calls N] [--seed N]");
	if (a->rounds < 1 || a->rounds > MAX_ROUNDS)
		S_fail(2, "--rounds %d: expected 1 to %d", a->rounds, MAX_ROUNDS);
}

int main(int argc, char **argv)
{
	S_args a;
	hb_counter counter;
	crypthash_fn fn;
	void *handle, *sym;
	unsigned char *msg, *out;
	size_t outlen;
	unsigned long long msg_bits, warm_calls = 0, per_round, r, i;
	uint64_t t0, t1, c0, c1, warm_ns, *cycles, *nanos, samples[NSAMPLES];
	long baseline_rss, peak_rss;
	int rc = 0;

	S_parse(&a, argc, argv);
	{
		/* a crash of the library must end this process with its signal (a sanitizer's
		 * handler, for one, would turn it into an exit status) */
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
		size_t k;
		for (k = 0; k < sizeof(fatal) / sizeof(fatal[0]); k++)
			signal(fatal[k], SIG_DFL);
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

	outlen = ((size_t)a.digest_bits + 7) / 8;
	msg = malloc(a.bytes);
	out = malloc(outlen + 2 * GUARD_LEN);
	cycles = malloc((size_t)a.rounds * sizeof(*cycles));
	nanos = malloc((size_t)a.rounds * sizeof(*nanos));
	if (!msg || !out || !cycles || !nanos)
		S_fail(3, "out of memory for a %llu-byte message", a.bytes);
	S_fill(msg, a.bytes, a.seed);
	memset(out, GUARD_BYTE, outlen + 2 * GUARD_LEN);
	msg_bits = 8ULL * a.bytes;

	handle = dlopen(a.library, RTLD_NOW | RTLD_LOCAL);
	if (!handle)
		S_fail(3, "cannot load %s: %s", a.library, dlerror());
	sym = dlsym(handle, "CryptHash");
	if (!sym)
		S_fail(3, "%s has no CryptHash function", a.library);
	*(void **)&fn = sym;
	baseline_rss = S_status_kib("VmRSS");

	/* warm-up, which also times one call for the calibration */
	t0 = hb_now_ns();
	do {
		rc |= fn(a.digest_bits, msg, msg_bits, out + GUARD_LEN);
		S_sink ^= out[GUARD_LEN];
		warm_calls++;
		t1 = hb_now_ns();
	} while ((double)(t1 - t0) < a.warmup_ms * 1e6);
	warm_ns = t1 - t0;
	if (rc != 0)
		S_fail(3, "CryptHash returned non-zero for a %llu-byte message", a.bytes);
	S_check_guards(out, outlen, "warm-up");
	per_round = hb_calls_per_round((double)warm_ns / (double)warm_calls, a.round_ms * 1e6,
		a.max_calls);

	for (r = 0; r < (unsigned long long)a.rounds; r++) {
		t0 = hb_now_ns();
		c0 = hb_counter_read(&counter);
		for (i = 0; i < per_round; i++) {
			rc |= fn(a.digest_bits, msg, msg_bits, out + GUARD_LEN);
			S_sink ^= out[GUARD_LEN];
		}
		c1 = hb_counter_read(&counter);
		t1 = hb_now_ns();
		if (rc != 0)
			S_fail(3, "CryptHash returned non-zero in round %llu", r + 1);
		S_check_guards(out, outlen, "timed round");
		cycles[r] = c1 - c0;
		nanos[r] = t1 - t0;
	}
	/* single calls, each read with the counter: the spread of the figure */
	for (i = 0; i < NSAMPLES; i++) {
		c0 = hb_counter_read(&counter);
		rc |= fn(a.digest_bits, msg, msg_bits, out + GUARD_LEN);
		c1 = hb_counter_read(&counter);
		S_sink ^= out[GUARD_LEN];
		samples[i] = c1 - c0;
	}
	if (rc != 0)
		S_fail(3, "CryptHash returned non-zero in a single timed call");
	S_check_guards(out, outlen, "single calls");
	peak_rss = S_status_kib("VmHWM");

	/* printed only now, so a failure leaves one error object and nothing else */
	printf("{\"counter\": \"%s\", \"cpu\": %d, \"message_seed\": %llu, ",
		hb_counter_name(&counter), a.cpu, a.seed);
	printf("\"calibration\": {\"warmup_calls\": %llu, \"warmup_ns\": %llu, "
		"\"calls_per_round\": %llu, \"round_ms\": %g, \"max_calls\": %llu}, \"trials\": [",
		warm_calls, (unsigned long long)warm_ns, per_round, a.round_ms, a.max_calls);
	for (r = 0; r < (unsigned long long)a.rounds; r++)
		printf("%s{\"iterations\": %llu, \"cycles\": %llu, \"ns\": %llu}", r ? ", " : "",
			per_round, (unsigned long long)cycles[r], (unsigned long long)nanos[r]);
	printf("], \"samples\": [");
	for (i = 0; i < NSAMPLES; i++)
		printf("%s%llu", i ? ", " : "", (unsigned long long)samples[i]);
	printf("], \"resources\": {\"baseline_rss_kib\": %ld, \"peak_rss_kib\": %ld}}\n",
		baseline_rss, peak_rss);
	fflush(stdout);
	hb_counter_close(&counter);
	free(msg);
	free(out);
	free(cycles);
	free(nanos);
	return 0;
}
