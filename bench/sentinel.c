/* sentinel.c — the watch on the machine's speed: the sentinel workload (sentinel_work.c), timed
 * on each timing CPU when the timing starts and by the driver before and after every pass, is
 * judged against the machine's usual best on that CPU (the tenth percentile of the readings so
 * far: noise only ever adds time); a pass whose sentinel is slower by more than the limit is
 * not calm. The limit is calibrated from the machine's own noise (the larger
 * of a floor and 3.5 robust standard deviations of the first readings) unless fixed by hand.
 * The whole trace is written to sentinel.json. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hbcampaign.h"

#define CALIBRATION_RUNS 15

struct hb_sentinel {
	double limit_pct, noise_pct; /* noise: robust standard deviation of the calibration, % */
	int fixed;                   /* the limit was given (--sentinel-limit) */
	json_t *readings;            /* sentinel.json's readings, in the order they were judged */
	struct { int cpu; double *v; size_t n, cap; } cpus[HB_MAX_CPUS];
	size_t ncpus;
	size_t disturbed, remeasured;
};

int hb_sentinel_new(hb_sentinel **out, double limit_pct)
{
	hb_sentinel *s = calloc(1, sizeof(*s));
	if (!s)
		return hb_error_set("out of memory");
	s->fixed = limit_pct > 0;
	s->limit_pct = limit_pct > 0 ? limit_pct : HB_SENTINEL_FLOOR_PCT;
	s->noise_pct = -1;
	s->readings = json_array();
	*out = s;
	return 0;
}

void hb_sentinel_free(hb_sentinel *s)
{
	size_t i;
	if (!s)
		return;
	for (i = 0; i < s->ncpus; i++)
		free(s->cpus[i].v);
	json_decref(s->readings);
	free(s);
}

double hb_sentinel_limit(const hb_sentinel *s)
{
	return s->limit_pct;
}

static void S_value(hb_sentinel *s, int cpu, double cycles)
{
	size_t i;
	for (i = 0; i < s->ncpus && s->cpus[i].cpu != cpu; i++)
		;
	if (i == s->ncpus) {
		if (s->ncpus == HB_MAX_CPUS)
			return;
		s->cpus[s->ncpus++].cpu = cpu;
	}
	if (s->cpus[i].n == s->cpus[i].cap) {
		size_t cap = s->cpus[i].cap ? 2 * s->cpus[i].cap : 64;
		double *v = realloc(s->cpus[i].v, cap * sizeof(*v));
		if (!v)
			return;
		s->cpus[i].v = v;
		s->cpus[i].cap = cap;
	}
	s->cpus[i].v[s->cpus[i].n++] = cycles;
}

/* A sorted copy of cpu's readings so far, their number in *n; NULL when there are none. */
static double *S_sorted(const hb_sentinel *s, int cpu, size_t *n)
{
	size_t i;
	double *v;
	for (i = 0; i < s->ncpus && s->cpus[i].cpu != cpu; i++)
		;
	if (i == s->ncpus || !s->cpus[i].n)
		return NULL;
	*n = s->cpus[i].n;
	v = malloc(*n * sizeof(*v));
	if (!v)
		return NULL;
	memcpy(v, s->cpus[i].v, *n * sizeof(*v));
	hb_median(v, *n); /* sorts */
	return v;
}

/* The q-quantile (0..1) of cpu's readings so far, the reading at floor(q (n - 1)) in order;
 * < 0 when there are none. */
static double S_quantile(const hb_sentinel *s, int cpu, double q)
{
	size_t n;
	double *v = S_sorted(s, cpu, &n), m;
	if (!v)
		return -1;
	m = v[(size_t)(q * (double)(n - 1))];
	free(v);
	return m;
}

double hb_sentinel_reference(const hb_sentinel *s, int cpu)
{
	/* noise only ever adds time: the machine at its usual best is its fast end, the tenth
	 * percentile (not the fastest reading, which one lucky run would set) */
	return S_quantile(s, cpu, HB_SENTINEL_REFERENCE_Q);
}

/* The median of cpu's readings (of an even number, the mean of the middle two, as hb_median
 * and the robust sd take it); < 0 when there are none. */
static double S_median(const hb_sentinel *s, int cpu)
{
	size_t n;
	double *v = S_sorted(s, cpu, &n), m;
	if (!v)
		return -1;
	m = hb_median(v, n);
	free(v);
	return m;
}

/* 1.4826 times the median absolute deviation of cpu's readings, in % of their median: their
 * standard deviation, were they normal, without being swayed by a few far ones. */
static double S_robust_sd_pct(const hb_sentinel *s, size_t i)
{
	double med, *d;
	size_t k, n = s->cpus[i].n;
	if (!n || !(d = malloc(n * sizeof(*d))))
		return -1;
	memcpy(d, s->cpus[i].v, n * sizeof(*d));
	med = hb_median(d, n);
	for (k = 0; k < n; k++)
		d[k] = fabs(s->cpus[i].v[k] - med);
	med = med > 0 ? 1.4826 * hb_median(d, n) / med * 100 : -1;
	free(d);
	return med;
}

void hb_sentinel_set_limit(hb_sentinel *s)
{
	size_t i;
	for (i = 0; i < s->ncpus; i++) {
		double sd = S_robust_sd_pct(s, i);
		if (sd > s->noise_pct)
			s->noise_pct = sd;
	}
	if (!s->fixed && s->noise_pct > 0 && HB_SENTINEL_SIGMAS * s->noise_pct > s->limit_pct)
		s->limit_pct = HB_SENTINEL_SIGMAS * s->noise_pct;
}

json_t *hb_sentinel_reading_json(const hb_run *r, int cpu, const char *when, const char *record,
	int attempt, unsigned long long cycles, unsigned long long ns)
{
	char now[32];
	hb_utc_now(now);
	return json_pack("{s:s, s:f, s:i, s:s?, s:s, s:i, s:I, s:I}", "time", now, "t_s",
		(double)(hb_now_ns() - r->t_start) / 1e9, "cpu", cpu, "record", record, "when", when,
		"attempt", attempt, "cycles", (json_int_t)cycles, "ns", (json_int_t)ns);
}

void hb_sentinel_add(hb_sentinel *s, json_t *readings)
{
	size_t i;
	json_t *x;
	json_array_foreach(readings, i, x) {
		json_t *cpu = json_object_get(x, "cpu"), *cycles = json_object_get(x, "cycles");
		if (!json_is_integer(cpu) || !json_is_integer(cycles))
			continue;
		S_value(s, (int)json_integer_value(cpu), (double)json_integer_value(cycles));
		json_array_append(s->readings, x);
	}
}

void hb_sentinel_count(hb_sentinel *s, size_t disturbed, size_t remeasured)
{
	s->disturbed += disturbed;
	s->remeasured += remeasured;
}

double hb_sentinel_noise_floor(const hb_sentinel *s)
{
	return s->noise_pct;
}

int hb_sentinel_calibrate(hb_sentinel *s, hb_run *r, int cpu)
{
	char cpu_s[16], runs_s[16], *out = NULL;
	const char *argv[] = { r->o->measure_exe, "--mode", "sentinel", "--sentinel-runs", runs_s,
		"--cpu", cpu_s, "--counter", hb_counter_name(&r->counter), NULL };
	json_t *j, *list, *x, *batch;
	size_t i;
	int rc;

	snprintf(cpu_s, sizeof(cpu_s), "%d", cpu);
	snprintf(runs_s, sizeof(runs_s), "%d", CALIBRATION_RUNS);
	/* our own code and no library: it needs no sandbox */
	rc = hb_run_capture(&out, (char *const *)argv, 30);
	j = rc == 0 && out ? json_loads(out, JSON_DISABLE_EOF_CHECK, NULL) : NULL;
	free(out);
	list = json_object_get(j, "sentinel");
	if (!json_is_array(list) || json_array_size(list) == 0) {
		json_decref(j);
		return hb_error_set("the sentinel workload did not run on CPU %d", cpu);
	}
	batch = json_array();
	json_array_foreach(list, i, x)
		json_array_append_new(batch, hb_sentinel_reading_json(r, cpu, "calibration", NULL, 0,
			(unsigned long long)json_integer_value(json_object_get(x, "cycles")),
			(unsigned long long)json_integer_value(json_object_get(x, "ns"))));
	hb_sentinel_add(s, batch);
	json_decref(batch);
	json_decref(j);
	return 0;
}

int hb_sentinel_judge(char *why, size_t n, double *out_dev, double reference,
	unsigned long long before, unsigned long long after, double limit_pct)
{
	double db, da;
	*out_dev = -1;
	if (reference <= 0)
		return 0;
	/* slower only: a machine faster than its median is not disturbed, it is at its best */
	db = ((double)before - reference) / reference * 100;
	da = ((double)after - reference) / reference * 100;
	*out_dev = db > da ? db : da;
	if (*out_dev <= limit_pct)
		return 0;
	snprintf(why, n, "the sentinel %s was %.1f %% slower than the machine's usual best (limit "
		"%.1f %%)",
		db >= da ? "before" : "after", *out_dev, limit_pct);
	return 1;
}

double hb_sentinel_noise(const hb_sentinel *s, int cpu)
{
	double ref = S_median(s, cpu), *d, m;
	size_t i, k, n;
	for (i = 0; i < s->ncpus && s->cpus[i].cpu != cpu; i++)
		;
	if (ref <= 0 || i == s->ncpus || !(n = s->cpus[i].n) || !(d = malloc(n * sizeof(*d))))
		return -1;
	for (k = 0; k < n; k++)
		d[k] = fabs(s->cpus[i].v[k] - ref) / ref * 100;
	m = hb_median(d, n);
	free(d);
	return m;
}

void hb_sentinel_warn(const hb_sentinel *s, hb_run *r)
{
	size_t i;
	for (i = 0; i < s->ncpus; i++) {
		double noise = hb_sentinel_noise(s, s->cpus[i].cpu);
		if (noise > s->limit_pct / 2)
			hb_note(r->o->progress, r->tty, "warning: the sentinel's readings on CPU %d lay a "
				"median %.1f %% from their median, against a --sentinel-limit of %.1f %%: this "
				"machine's speed changes by itself (a shared or virtual host?), so many records "
				"were measured again or marked disturbed", s->cpus[i].cpu, noise, s->limit_pct);
	}
}

json_t *hb_sentinel_summary(const hb_sentinel *s)
{
	json_t *med = json_object(), *rest = json_object(), *ref = json_object();
	size_t i;
	for (i = 0; i < s->ncpus; i++) {
		char key[16];
		snprintf(key, sizeof(key), "%d", s->cpus[i].cpu);
		json_object_set_new(med, key, json_real(S_median(s, s->cpus[i].cpu)));
		json_object_set_new(ref, key, json_real(hb_sentinel_reference(s, s->cpus[i].cpu)));
		json_object_set_new(rest, key, json_real(hb_sentinel_noise(s, s->cpus[i].cpu)));
	}
	return json_pack("{s:f, s:o, s:f, s:s, s:s, s:I, s:I, s:I, s:o, s:o, s:o}", "limit_pct",
		s->limit_pct, "noise_floor_pct", s->noise_pct >= 0 ? json_real(s->noise_pct) :
		json_null(), "limit_floor_pct", HB_SENTINEL_FLOOR_PCT, "limit_source",
		s->fixed ? "--sentinel-limit" : "calibrated", "workload",
		HB_SENTINEL_WORKLOAD, "readings", (json_int_t)json_array_size(s->readings),
		"disturbed_records", (json_int_t)s->disturbed, "remeasured_records",
		(json_int_t)s->remeasured, "median_cycles", med, "median_deviation_pct", rest,
		"reference_cycles", ref);
}

int hb_sentinel_write(const hb_sentinel *s, const char *sysdir)
{
	char *path = hb_sprintf("%s/sentinel.json", sysdir);
	json_t *j = json_pack("{s:s, s:s, s:f, s:o, s:f, s:s, s:O}", "schema", "hashbench.sentinel/1",
		"workload", HB_SENTINEL_WORKLOAD, "limit_pct", s->limit_pct, "noise_floor_pct",
		s->noise_pct >= 0 ? json_real(s->noise_pct) : json_null(), "limit_floor_pct",
		HB_SENTINEL_FLOOR_PCT, "limit_source", s->fixed ? "--sentinel-limit" : "calibrated",
		"readings", s->readings);
	int rc = hb_json_write(path, j);
	json_decref(j);
	free(path);
	return rc;
}
