/* fake_measure.c — a stand-in for hashbench-measure that times nothing: it answers the campaign's
 * protocol with scripted readings, so the judgement of passes can be tested without a clock.
 *
 * The script is the name it is run by (a symlink, argv[0]): "measure-<verdicts>", one letter per
 * pass in the order measured ('d': the sentinel after the pass 10 % slower than before; 'c', or no
 * letter left: calm). Every reading is SENTINEL cycles but those, so the campaign's reference is
 * SENTINEL; every block is 1000 cycles a call. The single-call samples of a size of B bytes spread
 * B hundredths of a percent: their median and first quartile 10000 cycles, their third quartile
 * 10000 + B. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SENTINEL 1000000ULL
#include "hbcampaign.h" /* hb_pass_seed */

/* The tests run their campaigns with --seed HBT_FAKE_SEED: pass p's order seed is then
 * hb_pass_seed(HBT_FAKE_SEED, p, 0), which tells the pass from the command line. */
#ifndef HBT_FAKE_SEED
#error "HBT_FAKE_SEED: the campaign seed of the tests' fake campaigns (tests/CMakeLists.txt)"
#endif

static char S_text[1 << 20];
static size_t S_len;

static void S_add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void S_add(const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(S_text + S_len, sizeof(S_text) - S_len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(S_text) - S_len)
		_exit(3);
	S_len += (size_t)n;
}

static void S_send(int fd)
{
	size_t off = 0;
	while (off < S_len) {
		ssize_t n = write(fd, S_text + off, S_len - off);
		if (n <= 0)
			_exit(3);
		off += (size_t)n;
	}
	_exit(0);
}

/* The verdict letter of pass (0-based) from the program's name; calm after the last. */
static char S_verdict(const char *argv0, unsigned long long pass)
{
	const char *base = strrchr(argv0, '/'), *script;
	base = base ? base + 1 : argv0;
	script = strchr(base, '-');
	if (!script || pass >= strlen(script + 1))
		return 'c';
	return script[1 + pass];
}

static void S_size(unsigned long long bytes, int blocks, int samples, int first)
{
	int k;
	S_add("%s{\"bytes\": %llu, \"calibration\": {\"warmup_calls\": 1, \"warmup_ns\": 1, "
		"\"calls_per_round\": 100, \"round_ms\": 1, \"max_calls\": 20000, \"given\": false}, "
		"\"trials\": [", first ? "" : ", ", bytes);
	for (k = 0; k < blocks; k++)
		S_add("%s{\"iterations\": 100, \"cycles\": 100000, \"ns\": 50000}", k ? ", " : "");
	S_add("], \"samples\": [");
	for (k = 0; k < samples; k++)
		S_add("%s%llu", k ? ", " : "", 10000 + (k >= (3 * samples) / 4 ? bytes : 0));
	S_add("]}");
}

int main(int argc, char **argv)
{
	const char *mode = "time", *bytes = "";
	unsigned long long seed = 0, after, pass;
	int i, fd = 1, runs = 0, blocks = 1, samples = 0;
	char list[4096], *tok, *save = NULL;

	for (i = 1; i + 1 < argc; i += 2) {
		const char *opt = argv[i], *v = argv[i + 1];
		if (strcmp(opt, "--mode") == 0)
			mode = v;
		else if (strcmp(opt, "--sentinel-runs") == 0)
			runs = atoi(v);
		else if (strcmp(opt, "--bytes") == 0)
			bytes = v;
		else if (strcmp(opt, "--blocks") == 0)
			blocks = atoi(v);
		else if (strcmp(opt, "--samples") == 0)
			samples = atoi(v);
		else if (strcmp(opt, "--order-seed") == 0)
			seed = strtoull(v, NULL, 10);
		else if (strcmp(opt, "--result-fd") == 0)
			fd = atoi(v);
	}
	if (strcmp(mode, "sentinel") == 0) {
		S_add("{\"counter\": \"tsc\", \"cpu\": 0, \"sentinel\": [");
		for (i = 0; i < runs; i++)
			S_add("%s{\"cycles\": %llu, \"ns\": 500000}", i ? ", " : "", SENTINEL);
		S_add("]}\n");
		S_send(fd);
	}
	if (strcmp(mode, "memory") == 0) {
		S_add("{\"memory\": {\"stack_bytes\": 512, \"stack_driver_bytes\": 64, "
			"\"stack_region_bytes\": 8388608, \"heap_peak_bytes\": 0, \"heap_allocations\": 0, "
			"\"mmap_bytes\": 0, \"heap_untracked\": false, \"redirected\": \"\"}}\n");
		S_send(fd);
	}
	/* the empty call of the null instance (seed 0) and unscripted passes are calm */
	for (pass = 0; seed && pass < 1000; pass++)
		if (hb_pass_seed(HBT_FAKE_SEED, (int)pass, 0) == seed)
			break;
	after = seed && pass < 1000 && S_verdict(argv[0], pass) == 'd' ? SENTINEL + SENTINEL / 10 :
		SENTINEL;
	S_add("{\"counter\": \"tsc\", \"cpu\": 0, \"message_seed\": 1, \"order_seed\": %llu, "
		"\"sizes\": [", seed);
	snprintf(list, sizeof(list), "%s", bytes);
	for (i = 0, tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save), i++)
		S_size(strtoull(tok, NULL, 10), blocks, samples, i == 0);
	S_add("], \"sentinel\": {\"before\": {\"cycles\": %llu, \"ns\": 500000}, \"after\": "
		"{\"cycles\": %llu, \"ns\": 500000}}, \"involuntary_switches\": 0, \"steal_ms\": 0, "
		"\"resources\": {\"baseline_rss_kib\": 1000, \"peak_rss_kib\": 1000}}\n", SENTINEL,
		after);
	S_send(fd);
	return 0;
}
