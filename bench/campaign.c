/* campaign.c — `hashbench run`: build every library, check its KATs, time it in pinned child
 * processes and write the evidence of DESIGN.md atomically, resuming what an interrupted run
 * left and surviving libraries that crash, hang or lie. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "counter.h"
#include "hashbench.h"
#include "driver.h"
#include "sandbox.h"

#ifndef HB_GIT_COMMIT
#define HB_GIT_COMMIT "unknown"
#endif

static const unsigned long long S_guide_sizes[] = { 32, 128, 512, 1024, 4096, 8192, 16384, 65536 };
#define NSIZES_MAX 64
#define MAX_RETRIES 2          /* a disturbed record is measured again at most this often */
#define DISTURBED_PCT 10.0     /* a round this far from the median round is a disturbance */

typedef struct {
	const char *name;
	int rounds;
	unsigned round_ms, warmup_ms, max_calls, time_limit_s;
} S_profile;

/* guide: the ICCS guide's rounds; quick: the same shape in short rounds (README: cost) */
static const S_profile S_profiles[] = {
	{ "guide", 5, 600, 200, 20000, 120 },
	{ "quick", 5, 100, 50, 20000, 30 },
};

typedef struct {
	const hb_campaign_opts *o;
	const S_profile *prof;
	unsigned long long sizes[NSIZES_MAX];
	size_t nsizes;
	char *sysdir;
	hb_env *env;
	hb_counter counter;
	double counter_hz;
	unsigned long long counter_read_cycles;
	double empty_call_cycles;  /* mean cycles of an empty CryptHash in the timing loop; <0 unknown */
	double spread_limit;
	char start[32];
	hb_campaign_summary sum;
	size_t done, total;
	uint64_t t_start;
	int tty;
} S_run;

/* ---- small helpers ---- */

static int S_cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}


static void S_utc_now(char out[32])
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static json_t *S_str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *S_int_or_null(long long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static int S_write_json(const char *path, json_t *j)
{
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	size_t len;
	char *with_nl;
	int rc;

	if (!text)
		return hb_error_set("%s: cannot serialise JSON", path);
	len = strlen(text);
	with_nl = realloc(text, len + 2);
	if (!with_nl) {
		free(text);
		return hb_error_set("out of memory");
	}
	with_nl[len] = '\n';
	with_nl[len + 1] = 0;
	rc = hb_file_write_atomic(path, with_nl, len + 1);
	free(with_nl);
	return rc;
}

static int S_valid_system(const char *s)
{
	size_t i, n = strlen(s);
	if (n == 0 || n > 64 || !isalnum((unsigned char)s[0]))
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return 0;
	return 1;
}

static const S_profile *S_find_profile(const char *name)
{
	size_t i;
	for (i = 0; i < sizeof(S_profiles) / sizeof(S_profiles[0]); i++)
		if (strcmp(S_profiles[i].name, name) == 0)
			return &S_profiles[i];
	return NULL;
}

static int S_parse_sizes(S_run *r, const char *list)
{
	char *copy, *tok, *save = NULL;
	size_t i;

	if (!list) {
		r->nsizes = sizeof(S_guide_sizes) / sizeof(S_guide_sizes[0]);
		for (i = 0; i < r->nsizes; i++)
			r->sizes[i] = S_guide_sizes[i];
		return 0;
	}
	copy = hb_strdup(list);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long long v;
		errno = 0;
		v = strtoull(tok, &end, 10);
		if (errno || *end || end == tok || v == 0 || v > (1ULL << 30) || tok[0] == '-' ||
			r->nsizes == NSIZES_MAX) {
			hb_error_set("--sizes: '%s' is not a message size in bytes (1 to 1073741824)", tok);
			free(copy);
			return HB_ERROR;
		}
		r->sizes[r->nsizes++] = v;
	}
	free(copy);
	if (!r->nsizes)
		return hb_error_set("--sizes: empty list");
	return 0;
}

static int S_default_cpu(void)
{
	cpu_set_t set;
	int i, last = -1;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 0;
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			last = i;
	return last < 0 ? 0 : last;
}

static int S_cpu_allowed(int cpu)
{
	cpu_set_t set;
	if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(set), &set) != 0)
		return 0;
	return CPU_ISSET(cpu, &set);
}

static long long S_cur_khz(const S_run *r)
{
	char *path = hb_sprintf("%s/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq",
		strcmp(r->o->env_root, "/") == 0 ? "" : r->o->env_root, r->env->cpu);
	hb_buf buf;
	long long v = -1;
	if (hb_file_read_raw(&buf, path) == 0) {
		v = strtoll((char *)buf.data, NULL, 10);
		hb_buf_free(&buf);
	}
	free(path);
	return v > 0 ? v : -1;
}

static json_t *S_loadavg(void)
{
	hb_buf buf;
	double a = 0, b = 0, c = 0;
	json_t *j;
	if (hb_file_read_raw(&buf, "/proc/loadavg") != 0)
		return json_null();
	if (sscanf((char *)buf.data, "%lf %lf %lf", &a, &b, &c) != 3) {
		hb_buf_free(&buf);
		return json_null();
	}
	hb_buf_free(&buf);
	j = json_array();
	json_array_append_new(j, json_real(a));
	json_array_append_new(j, json_real(b));
	json_array_append_new(j, json_real(c));
	return j;
}

/* Was a round far from the others? Fills why and returns 1 when one deviates more than
 * DISTURBED_PCT from the median round (cycles per call). */
static int S_disturbed(char *why, size_t n, json_t *trials)
{
	double per[64], sorted[64], median, worst = 0;
	size_t i, k = json_array_size(trials), at = 0;
	if (k < 3 || k > 64)
		return 0;
	for (i = 0; i < k; i++) {
		json_t *t = json_array_get(trials, i);
		double it = (double)json_integer_value(json_object_get(t, "iterations"));
		per[i] = it > 0 ? (double)json_integer_value(json_object_get(t, "cycles")) / it : 0;
		sorted[i] = per[i];
	}
	for (i = 1; i < k; i++) {
		size_t m;
		for (m = i; m > 0 && sorted[m - 1] > sorted[m]; m--) {
			double t = sorted[m];
			sorted[m] = sorted[m - 1];
			sorted[m - 1] = t;
		}
	}
	median = k % 2 ? sorted[k / 2] : (sorted[k / 2 - 1] + sorted[k / 2]) / 2;
	if (median <= 0)
		return 0;
	for (i = 0; i < k; i++) {
		double dev = (per[i] - median) / median * 100;
		if (dev < 0)
			dev = -dev;
		if (dev > worst) {
			worst = dev;
			at = i;
		}
	}
	if (worst <= DISTURBED_PCT)
		return 0;
	snprintf(why, n, "round %zu was %.1f %% away from the median round", at + 1, worst);
	return 1;
}

/* The interquartile range of the single-call samples as a percentage of their median. */
static double S_spread_pct(json_t *samples)
{
	size_t n = json_array_size(samples), i;
	uint64_t *v;
	double q1, q3, med;
	if (n < 4)
		return -1;
	v = malloc(n * sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = (uint64_t)json_integer_value(json_array_get(samples, i));
	qsort(v, n, sizeof(*v), S_cmp_u64);
	q1 = (double)v[n / 4];
	q3 = (double)v[(3 * n) / 4];
	med = (double)v[n / 2];
	free(v);
	return med > 0 ? (q3 - q1) / med * 100 : -1;
}

/* ---- progress ---- */

static void S_progress(S_run *r, const char *what, const char *result)
{
	FILE *p = r->o->progress;
	double elapsed, left;
	if (!p)
		return;
	elapsed = (double)(hb_now_ns() - r->t_start) / 1e9;
	left = r->done ? elapsed / (double)r->done * (double)(r->total - r->done) : 0;
	if (r->tty) {
		fprintf(p, "\r\033[K[%zu/%zu] %s %s (about %.0f s left)", r->done, r->total, what,
			result, left);
		if (r->done == r->total)
			fputc('\n', p);
	} else {
		fprintf(p, "hashbench: [%zu/%zu] %s: %s\n", r->done, r->total, what, result);
	}
	fflush(p);
}

static void S_note(S_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void S_note(S_run *r, const char *fmt, ...)
{
	va_list ap;
	if (!r->o->progress)
		return;
	if (r->tty)
		fputs("\r\033[K", r->o->progress);
	fputs("hashbench: ", r->o->progress);
	va_start(ap, fmt);
	vfprintf(r->o->progress, fmt, ap);
	va_end(ap);
	fputc('\n', r->o->progress);
	fflush(r->o->progress);
}

/* ---- system.json ---- */

static json_t *S_system_json(const S_run *r, const char *end)
{
	const hb_env *e = r->env;
	json_t *clock = json_object(), *boost = json_null(), *warnings = json_array();
	json_t *counter = json_object(), *campaign = json_object(), *sys = json_object();
	json_t *sizes = json_array();
	char version[128];
	size_t i;

	if (e->boost_name) {
		boost = json_object();
		json_object_set_new(boost, "name", json_string(e->boost_name));
		json_object_set_new(boost, "state", S_str_or_null(e->boost_state));
	}
	json_object_set_new(clock, "governor", S_str_or_null(e->governor));
	json_object_set_new(clock, "min_khz", S_int_or_null(e->min_khz));
	json_object_set_new(clock, "max_khz", S_int_or_null(e->max_khz));
	json_object_set_new(clock, "boost", boost);
	json_object_set_new(clock, "smt", S_str_or_null(e->smt));

	json_object_set_new(counter, "name", json_string(hb_counter_name(&r->counter)));
	json_object_set_new(counter, "hz", r->counter_hz > 0 ?
		json_integer((json_int_t)(r->counter_hz + 0.5)) : json_null());

	for (i = 0; e->warnings && e->warnings[i]; i++)
		json_array_append_new(warnings, json_string(e->warnings[i]));
	if (r->counter.kind != HB_COUNTER_PERF)
		json_array_append_new(warnings, json_string("no hardware cycle counter: cycles are "
			"counted by the time-stamp counter, not by the core"));

	snprintf(version, sizeof(version), "%s (git %s)", HB_VERSION, HB_GIT_COMMIT);
	for (i = 0; i < r->nsizes; i++)
		json_array_append_new(sizes, json_integer((json_int_t)r->sizes[i]));
	json_object_set_new(campaign, "start", json_string(r->start));
	json_object_set_new(campaign, "end", end ? json_string(end) : json_null());
	json_object_set_new(campaign, "profile", json_string(r->prof->name));
	json_object_set_new(campaign, "hashbench", json_string(version));
	json_object_set_new(campaign, "rounds", json_integer(r->prof->rounds));
	json_object_set_new(campaign, "round_ms", json_integer(r->prof->round_ms));
	json_object_set_new(campaign, "warmup_ms", json_integer(r->prof->warmup_ms));
	json_object_set_new(campaign, "max_calls", json_integer(r->prof->max_calls));
	json_object_set_new(campaign, "message_sizes", sizes);
	json_object_set_new(campaign, "samples_per_record", json_integer(101));
	json_object_set_new(campaign, "spread_limit_pct", json_real(r->spread_limit));
	json_object_set_new(campaign, "disturbance_pct", json_real(DISTURBED_PCT));
	json_object_set_new(campaign, "max_retries", json_integer(MAX_RETRIES));

	json_object_set_new(sys, "schema", json_string("hashbench.system/1"));
	json_object_set_new(sys, "system", json_string(r->o->system));
	json_object_set_new(sys, "arch", S_str_or_null(e->arch));
	json_object_set_new(sys, "processor", S_str_or_null(e->processor));
	if (e->machine)
		json_object_set_new(sys, "machine", json_string(e->machine));
	json_object_set_new(sys, "cpu", json_integer(e->cpu));
	json_object_set_new(sys, "clock", clock);
	json_object_set_new(sys, "memory_mib", S_int_or_null(e->memory_mib));
	json_object_set_new(sys, "os", S_str_or_null(e->os));
	json_object_set_new(sys, "kernel", S_str_or_null(e->kernel));
	json_object_set_new(sys, "compiler", S_str_or_null(e->compiler));
	json_object_set_new(sys, "build_tool", S_str_or_null(e->build_tool));
	json_object_set_new(sys, "virtual_machine", e->virtual_machine < 0 ? json_null() :
		json_boolean(e->virtual_machine));
	json_object_set_new(sys, "hypervisor", S_str_or_null(e->hypervisor));
	json_object_set_new(sys, "counter", counter);
	{
		json_t *ov = json_object();
		json_object_set_new(ov, "counter_read_cycles", json_integer((json_int_t)r->counter_read_cycles));
		json_object_set_new(ov, "empty_call_cycles", r->empty_call_cycles >= 0 ?
			json_real((double)(long long)(r->empty_call_cycles * 10 + 0.5) / 10) : json_null());
		/* the same choice on every system: loop and counter costs stay in the figures */
		json_object_set_new(ov, "subtracted", json_false());
		json_object_set_new(sys, "overhead", ov);
	}
	json_object_set_new(sys, "warnings", warnings);
	json_object_set_new(sys, "sandbox", hb_sandbox_json(r->o->time_limit_s ? r->o->time_limit_s :
		r->prof->time_limit_s));
	json_object_set_new(sys, "campaign", campaign);
	return sys;
}

/* What one read of the counter costs: the median of 1001 back-to-back pairs. */
static unsigned long long S_counter_read_cost(const hb_counter *c)
{
	uint64_t d[1001];
	size_t i;
	for (i = 0; i < 1001; i++) {
		uint64_t c0 = hb_counter_read(c);
		uint64_t c1 = hb_counter_read(c);
		d[i] = c1 - c0;
	}
	qsort(d, 1001, sizeof(d[0]), S_cmp_u64);
	return (unsigned long long)d[500];
}

static int S_setup(S_run *r, const hb_campaign_opts *o)
{
	char *cc;
	int cpu;

	memset(r, 0, sizeof(*r));
	r->counter.fd = -1;
	r->o = o;
	r->prof = S_find_profile(o->profile ? o->profile : "guide");
	if (!r->prof)
		return hb_error_set("--profile %s: expected guide or quick", o->profile);
	if (!o->system || !S_valid_system(o->system))
		return hb_error_set("--system %s: expected 1 to 64 letters, digits, '_', '-' or '.', "
			"starting with a letter or digit", o->system ? o->system : "(missing)");
	if (S_parse_sizes(r, o->sizes) != 0)
		return HB_ERROR;
	cpu = o->cpu >= 0 ? o->cpu : S_default_cpu();
	if (!S_cpu_allowed(cpu))
		return hb_error_set("--cpu %d: not a CPU this process may run on", cpu);
	if (hb_counter_open(&r->counter, NULL) != 0)
		return hb_error_set("no cycle counter on this machine");
	r->counter_hz = hb_counter_calibrate_hz(&r->counter, 100);
	r->counter_read_cycles = S_counter_read_cost(&r->counter);
	r->empty_call_cycles = -1;
	r->spread_limit = o->spread_limit_pct > 0 ? o->spread_limit_pct : 5.0;
	cc = hb_profiles_cc(o->profiles); /* NULL: the environment says "not available" */
	if (hb_env_read(&r->env, o->env_root ? o->env_root : "/", cpu, cc, 1) != 0) {
		free(cc);
		return HB_ERROR;
	}
	free(cc);
	S_utc_now(r->start);
	return 0;
}

static void S_teardown(S_run *r)
{
	hb_env_free(r->env);
	hb_counter_close(&r->counter);
	free(r->sysdir);
}

int hb_campaign_system_json(char **out, const hb_campaign_opts *o)
{
	S_run r;
	json_t *j;
	int rc;

	*out = NULL;
	if ((rc = S_setup(&r, o)) != 0) {
		S_teardown(&r);
		return rc;
	}
	j = S_system_json(&r, NULL);
	*out = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(j);
	S_teardown(&r);
	return *out ? 0 : hb_error_set("cannot serialise system.json");
}

/* ---- the data folder ---- */

static int S_probe_writable(const char *dir)
{
	char *probe = hb_path_join(dir, ".hashbench-probe");
	int rc = hb_file_write_atomic(probe, "", 0);
	unlink(probe);
	free(probe);
	if (rc != 0)
		return hb_error_set("%s: the data folder is not writable", dir);
	return 0;
}

static int S_rm_rf(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : hb_error_set("%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *de;
		int rc = 0;
		if (!d)
			return hb_error_set("%s: %s", path, strerror(errno));
		while (rc == 0 && (de = readdir(d)) != NULL) {
			char *sub;
			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			sub = hb_path_join(path, de->d_name);
			rc = S_rm_rf(sub);
			free(sub);
		}
		closedir(d);
		if (rc == 0 && rmdir(path) != 0)
			rc = hb_error_set("%s: %s", path, strerror(errno));
		return rc;
	}
	if (unlink(path) != 0)
		return hb_error_set("%s: %s", path, strerror(errno));
	return 0;
}

/* Temporary files of atomic writes that a killed run left behind ("<name>.tmp.<pid>"). */
static void S_clean_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char *sub;
		struct stat st;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		sub = hb_path_join(dir, de->d_name);
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			S_clean_tmp(sub);
		else if (strstr(de->d_name, ".tmp."))
			unlink(sub);
		free(sub);
	}
	closedir(d);
}

/* ---- catalog entries ---- */

static int S_write_catalog(const S_run *r, const hb_algorithm *alg)
{
	static const char *keep[] = { "id", "name", "category", "function", "parameter_sets",
		"links", NULL };
	json_error_t jerr;
	json_t *src = json_loads(alg->json_text, 0, &jerr), *dst = json_object();
	char *dir = hb_path_join(r->o->data_dir, "algorithms"), *path;
	int i, rc;

	if (!src) {
		json_decref(dst);
		free(dir);
		return hb_error_set("%s:%d: %s", alg->json_path, jerr.line, jerr.text);
	}
	for (i = 0; keep[i]; i++) {
		json_t *v = json_object_get(src, keep[i]);
		if (v)
			json_object_set(dst, keep[i], v);
	}
	if (!json_object_get(dst, "parameter_sets")) {
		json_t *sets = json_array();
		size_t k;
		for (k = 0; k < alg->ninstances; k++)
			if (k == 0 || strcmp(alg->instances[k].name, alg->instances[k - 1].name) != 0)
				json_array_append_new(sets, json_string(alg->instances[k].name));
		json_object_set_new(dst, "parameter_sets", sets);
	}
	path = hb_sprintf("%s/%s.json", dir, alg->id);
	rc = hb_mkdir_p(dir);
	if (rc == 0)
		rc = S_write_json(path, dst);
	json_decref(src);
	json_decref(dst);
	free(dir);
	free(path);
	return rc;
}

/* ---- KAT ---- */

static json_t *S_build_json(const hb_build_result *b, const hb_instance *inst)
{
	json_t *j = json_object();
	json_object_set_new(j, "flags", json_string(inst->extra_cflags[0] ? "guide+overrides" : "guide"));
	json_object_set_new(j, "profile", json_string(b->profile));
	json_object_set_new(j, "cc", json_string(b->cc));
	json_object_set_new(j, "cflags", json_string(b->cflags));
	json_object_set_new(j, "command", json_string(b->command));
	json_object_set_new(j, "library", json_string(b->library));
	json_object_set_new(j, "library_sha256", json_string(b->library_sha256));
	return j;
}

/* The summary of an earlier run is kept when it checked the same library and sets. */
static json_t *S_kat_reusable(const char *path, const hb_build_result *b, unsigned mask)
{
	json_t *j = json_load_file(path, 0, NULL), *lib, *m;
	if (!j)
		return NULL;
	lib = json_object_get(j, "library_sha256");
	m = json_object_get(j, "sets_mask");
	if (json_is_string(lib) && strcmp(json_string_value(lib), b->library_sha256) == 0 &&
		json_is_integer(m) && (unsigned)json_integer_value(m) == mask &&
		json_is_string(json_object_get(j, "result")))
		return j;
	json_decref(j);
	return NULL;
}

/* Check one library; returns the result ("PASS", "FAIL", "ERROR"), borrowed from static text. */
static const char *S_kat(S_run *r, const hb_instance *inst, const hb_build_result *b,
	const char *build_error)
{
	char *dir = hb_sprintf("%s/kat/%s", r->sysdir, inst->algorithm->id);
	char *stem = hb_instance_stem(inst);
	char *json_path = hb_sprintf("%s/%s.json", dir, stem), *log_path = hb_sprintf("%s/%s.log", dir, stem);
	char *work = hb_sprintf("%s/kat/%s/%s/%s", r->o->work, r->o->system, inst->algorithm->id, stem);
	unsigned mask = r->o->kat_sets ? r->o->kat_sets : (1u << HB_KAT_2_12) | (1u << HB_KAT_2_23);
	const char *result = "ERROR";
	char *logtext = NULL;
	size_t loglen = 0;
	FILE *log;
	json_t *j, *files;
	hb_kat_report rep;
	int s;

	memset(&rep, 0, sizeof(rep));
	hb_mkdir_p(dir);
	if (b && (j = S_kat_reusable(json_path, b, mask)) != NULL) {
		const char *res = json_string_value(json_object_get(j, "result"));
		result = strcmp(res, "PASS") == 0 ? "PASS" : strcmp(res, "FAIL") == 0 ? "FAIL" : "ERROR";
		json_decref(j);
		goto out;
	}
	log = open_memstream(&logtext, &loglen);
	fprintf(log, "hashbench %s (git %s) KAT check of %s (%s), algorithm %s\n", HB_VERSION,
		HB_GIT_COMMIT, inst->name, inst->impl, inst->algorithm->id);
	fprintf(log, "instance folder: %s\n", inst->dir);
	j = json_object();
	json_object_set_new(j, "schema", json_string("hashbench.kat/1"));
	json_object_set_new(j, "instance", json_string(inst->name));
	json_object_set_new(j, "implementation", json_string(inst->impl));
	if (b) {
		fprintf(log, "build: %s\n", b->command);
		fprintf(log, "library sha256: %s\n", b->library_sha256);
		if (b->log && *b->log)
			fprintf(log, "compiler output:\n%s", b->log);
		json_object_set_new(j, "build_flags", json_string(inst->extra_cflags[0] ?
			"guide+overrides" : "guide"));
		json_object_set_new(j, "cflags", json_string(b->cflags));
		json_object_set_new(j, "library_sha256", json_string(b->library_sha256));
		fflush(log);
		if (hb_kat_check(&rep, inst, b->library, mask, work, r->o->time_limit_s, log) != 0) {
			rep.result = "ERROR";
			rep.detail = hb_strdup(hb_error_last());
		}
	} else {
		fprintf(log, "build failed:\n%s\n", build_error);
		json_object_set_new(j, "build_flags", json_string("guide"));
		json_object_set_new(j, "cflags", json_null());
		json_object_set_new(j, "library_sha256", json_null());
		rep.result = "ERROR";
		rep.detail = hb_sprintf("the build failed: %s", build_error);
	}
	fclose(log);
	files = json_array();
	for (s = 0; s < HB_KAT_NSETS; s++) {
		const hb_kat_file_result *f = &rep.files[s];
		json_t *fj;
		if (!(rep.mask & (1u << s)))
			continue;
		fj = json_object();
		json_object_set_new(fj, "name", json_string(f->name));
		json_object_set_new(fj, "sha256", f->sha256[0] ? json_string(f->sha256) : json_null());
		json_object_set_new(fj, "expected_sha256", f->expected_sha256[0] ?
			json_string(f->expected_sha256) : json_null());
		json_object_set_new(fj, "entries", json_integer((json_int_t)f->entries));
		json_object_set_new(fj, "result", json_string(f->result));
		json_object_set_new(fj, "detail", S_str_or_null(f->detail));
		json_array_append_new(files, fj);
	}
	json_object_set_new(j, "files", files);
	json_object_set_new(j, "sets_mask", json_integer(mask));
	json_object_set_new(j, "scope", json_string(inst->kat_byte_aligned ? "byte-aligned" : "all"));
	json_object_set_new(j, "result", json_string(rep.result));
	json_object_set_new(j, "detail", S_str_or_null(rep.detail));
	result = strcmp(rep.result, "PASS") == 0 ? "PASS" : strcmp(rep.result, "FAIL") == 0 ?
		"FAIL" : "ERROR";
	/* log first: a summary never points at a log that is not there */
	if (hb_file_write_atomic(log_path, logtext, loglen) != 0 || S_write_json(json_path, j) != 0)
		S_note(r, "%s", hb_error_last());
	json_decref(j);
	free(logtext);
out:
	hb_kat_report_clear(&rep);
	free(dir);
	free(stem);
	free(json_path);
	free(log_path);
	free(work);
	return result;
}

/* kat/<id>/kat.sha256: the submitted KAT files of the algorithm, sha256sum format. */
static int S_write_kat_manifest(const S_run *r, const hb_algorithm *alg)
{
	char *dir = hb_sprintf("%s/kat/%s", r->sysdir, alg->id), *path = hb_path_join(dir, "kat.sha256");
	char *text = NULL, **seen = calloc(alg->ninstances * HB_KAT_NSETS + 1, sizeof(char *));
	size_t len = 0, nseen = 0, k, i;
	FILE *f = open_memstream(&text, &len);
	int s, rc;

	for (k = 0; k < alg->ninstances; k++) {
		const hb_instance *inst = &alg->instances[k];
		for (s = 0; s < HB_KAT_NSETS; s++) {
			const char *src = inst->kat_files[s] ? inst->kat_files[s] : inst->kat_manifest_file[s];
			char hex[65];
			const char *base;
			int dup = 0;
			if (!src)
				continue;
			for (i = 0; i < nseen; i++)
				if (strcmp(seen[i], src) == 0 && inst->kat_files[s])
					dup = 1;
			if (dup)
				continue;
			if (inst->kat_files[s]) {
				seen[nseen++] = inst->kat_files[s];
				if (hb_sha256_file(hex, inst->kat_files[s]) != 0)
					continue;
				base = strrchr(inst->kat_files[s], '/');
				fprintf(f, "%s  %s\n", hex, base ? base + 1 : inst->kat_files[s]);
			} else {
				fprintf(f, "%s  KAT_%s_%s.txt\n", inst->kat_manifest[s], hb_kat_set_name(s),
					inst->name);
			}
		}
	}
	fclose(f);
	rc = hb_mkdir_p(dir);
	if (rc == 0)
		rc = hb_file_write_atomic(path, text, len);
	free(text);
	free(seen);
	free(dir);
	free(path);
	return rc;
}

/* ---- records ---- */

static char *S_record_path(const S_run *r, const hb_instance *inst, unsigned long long bytes)
{
	char *stem = hb_instance_stem(inst);
	char *p = hb_sprintf("%s/records/%s/%s__hash_%llu.json", r->sysdir, inst->algorithm->id, stem,
		bytes);
	free(stem);
	return p;
}

/* A finished record is kept when its library, its profile and whether it was sandboxed are
 * unchanged (a record of an earlier version, without "sandbox", was not). */
static int S_record_reusable(const S_run *r, const char *path, const hb_build_result *b)
{
	json_t *j = json_load_file(path, 0, NULL), *lib, *prof, *st;
	int sandboxed;
	int ok;
	if (!j)
		return 0;
	lib = json_object_get(json_object_get(j, "build"), "library_sha256");
	prof = json_object_get(j, "profile");
	st = json_object_get(j, "status");
	sandboxed = json_is_true(json_object_get(json_object_get(j, "sandbox"), "enabled"));
	ok = sandboxed == hb_sandbox_enabled() && json_is_string(lib) && strcmp(json_string_value(lib), b->library_sha256) == 0 &&
		json_is_string(prof) && strcmp(json_string_value(prof), r->prof->name) == 0 &&
		json_is_string(st) && json_is_array(json_object_get(j, "trials"));
	json_decref(j);
	return ok;
}

/* The driver's setup for this campaign's records. */
static hb_driver_setup S_driver(const S_run *r)
{
	hb_driver_setup d = { r->o->measure_exe, hb_counter_name(&r->counter), r->env->cpu,
		r->prof->rounds, r->prof->round_ms, r->prof->warmup_ms, r->prof->max_calls };
	return d;
}

static const char *S_measure(S_run *r, const hb_instance *inst, const hb_build_result *b,
	const char *kat_result, unsigned long long bytes, unsigned long long static_bytes)
{
	hb_driver_setup setup = S_driver(r);
	hb_driver_cmd drv;
	char **argv = drv.argv, started[32], finished[32];
	char *path = S_record_path(r, inst, bytes), *dir;
	hb_child run;
	json_t *rec, *cmd, *env, *res, *child = NULL, *trials;
	const char *status = "ok";
	char *detail = NULL;
	unsigned limit = r->o->time_limit_s ? r->o->time_limit_s : r->prof->time_limit_s;
	long long khz = -1, khz_after = -1;
	json_t *retries = json_array(), *load_before = NULL, *load_after = NULL;
	int i, attempt, disturbed = 0;

	hb_driver_cmd_init(&drv, &setup, b->library, bytes, inst->digest_bits);
	memset(&run, 0, sizeof(run));

	for (attempt = 0;; attempt++) {
		char why[160];
		status = "ok";
		load_before = S_loadavg();
		khz = S_cur_khz(r);
		S_utc_now(started);
		json_decref(child);
		free(detail);
		status = hb_driver_run(&run, &child, &detail, &drv, b->library, limit);
		S_utc_now(finished);
		load_after = S_loadavg();
		khz_after = S_cur_khz(r);
		disturbed = strcmp(status, "ok") == 0 &&
			S_disturbed(why, sizeof(why), json_object_get(child, "trials"));
		if (!disturbed || attempt == MAX_RETRIES)
			break;
		/* a disturbed attempt is kept as evidence, and the record measured again */
		json_array_append_new(retries, json_pack("{s:s, s:s, s:s, s:O, s:o, s:o}", "reason", why,
			"started", started, "finished", finished, "trials", json_object_get(child, "trials"),
			"load_before", load_before, "load_after", load_after));
		S_note(r, "%s (%s) hash_%llu: %s; measuring again", inst->name, inst->impl, bytes, why);
		json_decref(child);
		child = NULL;
	}
	if (detail) {
		char *nl;
		while ((nl = strchr(detail, '\n')) != NULL)
			*nl = ' ';
	}

	rec = json_object();
	json_object_set_new(rec, "schema", json_string("hashbench.record/1"));
	json_object_set_new(rec, "system", json_string(r->o->system));
	json_object_set_new(rec, "algorithm", json_string(inst->algorithm->id));
	json_object_set_new(rec, "instance", json_string(inst->name));
	json_object_set_new(rec, "implementation", json_string(inst->impl));
	json_object_set_new(rec, "operation", json_sprintf("hash_%llu", bytes));
	json_object_set_new(rec, "message_bytes", json_integer((json_int_t)bytes));
	json_object_set_new(rec, "output_bytes", json_integer((inst->digest_bits + 7) / 8));
	json_object_set_new(rec, "status", json_string(status));
	if (detail)
		json_object_set_new(rec, "detail", json_string(detail));
	json_object_set_new(rec, "kat", json_string(kat_result));
	json_object_set_new(rec, "profile", json_string(r->prof->name));
	cmd = json_array();
	json_array_append_new(cmd, json_string("hashbench-measure"));
	for (i = 1; argv[i]; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	json_object_set_new(rec, "command", cmd);
	json_object_set_new(rec, "build", S_build_json(b, inst));
	env = json_object();
	json_object_set_new(env, "cpu", json_integer(r->env->cpu));
	json_object_set_new(env, "counter", json_string(hb_counter_name(&r->counter)));
	json_object_set_new(env, "governor", S_str_or_null(r->env->governor));
	json_object_set_new(env, "cur_khz", S_int_or_null(khz));
	json_object_set_new(env, "cur_khz_after", S_int_or_null(khz_after));
	json_object_set_new(env, "load_before", load_before ? load_before : json_null());
	json_object_set_new(env, "load_after", load_after ? load_after : json_null());
	json_object_set_new(env, "started", json_string(started));
	json_object_set_new(env, "finished", json_string(finished));
	json_object_set_new(rec, "environment", env);
	json_object_set_new(rec, "sandbox", hb_sandbox_json(limit));
	if (run.output_len) {
		/* what the library printed: text in the record, never parsed */
		json_object_set_new(rec, "output", json_stringn_nocheck(run.output, run.output_len));
		json_object_set_new(rec, "output_truncated", json_boolean(run.output_truncated));
	}
	json_object_set_new(rec, "input", json_pack("{s:s, s:I}", "generator", "splitmix64",
		"seed", child && json_is_integer(json_object_get(child, "message_seed")) ?
		json_integer_value(json_object_get(child, "message_seed")) : (json_int_t)0));
	if (child && json_object_get(child, "calibration"))
		json_object_set(rec, "calibration", json_object_get(child, "calibration"));
	trials = strcmp(status, "ok") == 0 ? json_object_get(child, "trials") : NULL;
	json_object_set_new(rec, "trials", trials ? json_incref(trials) : json_array());
	if (trials && json_is_array(json_object_get(child, "samples"))) {
		double spread = S_spread_pct(json_object_get(child, "samples"));
		json_object_set(rec, "samples", json_object_get(child, "samples"));
		if (spread > r->spread_limit) {
			r->sum.unstable++;
			S_note(r, "%s (%s) hash_%llu: spread %.1f %% of the median, above %.1f %%",
				inst->name, inst->impl, bytes, spread, r->spread_limit);
		}
	}
	json_object_set_new(rec, "disturbed", json_boolean(disturbed));
	json_object_set_new(rec, "retries", retries);
	res = json_object();
	json_object_set_new(res, "static_bytes", json_integer((json_int_t)static_bytes));
	if (strcmp(status, "ok") == 0) {
		json_t *cr = json_object_get(child, "resources");
		json_object_set(res, "baseline_rss_kib", json_object_get(cr, "baseline_rss_kib"));
		json_object_set(res, "peak_rss_kib", json_object_get(cr, "peak_rss_kib"));
	} else {
		json_object_set_new(res, "baseline_rss_kib", json_null());
		json_object_set_new(res, "peak_rss_kib", json_null());
	}
	json_object_set_new(rec, "resources", res);

	dir = hb_sprintf("%s/records/%s", r->sysdir, inst->algorithm->id);
	if (hb_mkdir_p(dir) != 0 || S_write_json(path, rec) != 0) {
		S_note(r, "%s", hb_error_last());
		status = "error";
	}
	if (strcmp(status, "ok") != 0)
		S_note(r, "%s (%s) hash_%llu: %s%s%s", inst->name, inst->impl, bytes,
			detail && strncmp(detail, status, strlen(status)) == 0 ? "" : status,
			detail && strncmp(detail, status, strlen(status)) != 0 ? ": " : "",
			detail ? detail : "");
	json_decref(rec);
	json_decref(child);
	hb_child_clear(&run);
	free(detail);
	free(dir);
	free(path);
	return status;
}

/* ---- SHA256SUMS ---- */

static int S_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int S_collect(char ***list, size_t *n, const char *root, const char *rel)
{
	char *dir = rel[0] ? hb_path_join(root, rel) : hb_strdup(root);
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = 0;
	if (!d) {
		free(dir);
		return 0;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		char *sub_rel, *sub;
		struct stat st;
		if (de->d_name[0] == '.' || strstr(de->d_name, ".tmp."))
			continue;
		sub_rel = rel[0] ? hb_sprintf("%s/%s", rel, de->d_name) : hb_strdup(de->d_name);
		sub = hb_path_join(root, sub_rel);
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
			rc = S_collect(list, n, root, sub_rel);
			free(sub_rel);
		} else if (S_ISREG(st.st_mode) && strcmp(sub_rel, "SHA256SUMS") != 0) {
			char **g = realloc(*list, (*n + 1) * sizeof(char *));
			if (!g) {
				rc = hb_error_set("out of memory");
				free(sub_rel);
			} else {
				*list = g;
				(*list)[(*n)++] = sub_rel;
			}
		} else {
			free(sub_rel);
		}
		free(sub);
	}
	closedir(d);
	free(dir);
	return rc;
}

int hb_write_sha256sums(const char *sysdir)
{
	char **files = NULL, *text = NULL, *path;
	size_t n = 0, len = 0, i;
	FILE *f;
	int rc = S_collect(&files, &n, sysdir, "");

	if (n)
		qsort(files, n, sizeof(char *), S_cmp_str);
	f = open_memstream(&text, &len);
	for (i = 0; i < n && rc == 0; i++) {
		char hex[65], *full = hb_path_join(sysdir, files[i]);
		rc = hb_sha256_file(hex, full);
		if (rc == 0)
			fprintf(f, "%s  %s\n", hex, files[i]);
		free(full);
	}
	fclose(f);
	path = hb_path_join(sysdir, "SHA256SUMS");
	if (rc == 0)
		rc = hb_file_write_atomic(path, text, len);
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	free(text);
	free(path);
	return rc;
}

/* ---- what the loop and an empty call cost ---- */

#ifndef HB_NULL_SOURCE
#define HB_NULL_SOURCE "bench/null/CryptHash_null.c"
#endif

/* Time the null instance (an empty CryptHash) with the profile's rounds: the mean cycles of one
 * call inside the timing loop. Left unknown (< 0) when it cannot be built or run. */
static void S_empty_call(S_run *r)
{
	char *sources[] = { HB_NULL_SOURCE, NULL }, *none[] = { NULL };
	hb_driver_setup setup = S_driver(r);
	hb_driver_cmd cmd;
	hb_child run;
	hb_instance inst;
	hb_build_result *b = NULL;
	json_t *child, *t;
	double cycles = 0, iterations = 0;
	size_t i;

	memset(&inst, 0, sizeof(inst));
	inst.name = "null";
	inst.impl = "reference";
	inst.profile = "reference";
	inst.digest_bits = 256;
	inst.sources = sources;
	inst.include_dirs = none;
	inst.extra_cflags = none;
	if (hb_build(&b, &inst, r->o->profiles, r->o->work) != 0) {
		S_note(r, "warning: the null instance did not build: %s", hb_error_last());
		return;
	}
	hb_driver_cmd_init(&cmd, &setup, b->library, 32, 256);
	if (hb_sandbox_exec(&run, b->library, 60, cmd.run) == 0 && run.status == HB_CHILD_OK &&
		run.result.data &&
		(child = json_loads((char *)run.result.data, JSON_DISABLE_EOF_CHECK, NULL)) != NULL) {
		json_array_foreach(json_object_get(child, "trials"), i, t) {
			cycles += (double)json_integer_value(json_object_get(t, "cycles"));
			iterations += (double)json_integer_value(json_object_get(t, "iterations"));
		}
		if (iterations > 0)
			r->empty_call_cycles = cycles / iterations;
		json_decref(child);
	}
	hb_child_clear(&run);
	hb_build_result_free(b);
}

/* ---- the campaign ---- */

static int S_selected(const char *only, const char *id)
{
	char *copy, *tok, *save = NULL;
	int hit = 0;
	if (!only)
		return 1;
	copy = hb_strdup(only);
	for (tok = strtok_r(copy, ",", &save); tok && !hit; tok = strtok_r(NULL, ",", &save))
		hit = strcmp(tok, id) == 0;
	free(copy);
	return hit;
}

static int S_check_only(const hb_catalog *cat, const char *only)
{
	char *copy, *tok, *save = NULL;
	size_t i;
	int rc = 0;
	if (!only)
		return 0;
	copy = hb_strdup(only);
	for (tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
		int found = 0;
		for (i = 0; i < cat->nalgorithms; i++)
			found |= strcmp(cat->algorithms[i].id, tok) == 0;
		if (!found) {
			char known[1024] = "";
			for (i = 0; i < cat->nalgorithms; i++)
				snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
					i ? ", " : "", cat->algorithms[i].id);
			rc = hb_error_set("--only: unknown algorithm '%s' (known: %s)", tok, known);
		}
	}
	free(copy);
	return rc;
}

int hb_campaign_run(hb_campaign_summary *out, const hb_campaign_opts *o)
{
	S_run r;
	hb_catalog *cat = NULL;
	json_t *sys = NULL, *old;
	char *sys_path = NULL, end[32];
	size_t a, k, i;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = S_setup(&r, o)) != 0)
		goto out;
	r.t_start = hb_now_ns();
	r.tty = o->progress && isatty(fileno(o->progress));
	if ((rc = hb_catalog_load(&cat, o->submissions)) != 0 || (rc = S_check_only(cat, o->only)) != 0)
		goto out;
	for (i = 0; cat->warnings && cat->warnings[i]; i++)
		S_note(&r, "warning: %s", cat->warnings[i]);
	r.sysdir = hb_path_join(o->data_dir, o->system);
	if ((rc = hb_mkdir_p(r.sysdir)) != 0 || (rc = S_probe_writable(r.sysdir)) != 0)
		goto out;
	sys_path = hb_path_join(r.sysdir, "system.json");
	S_clean_tmp(r.sysdir);
	if (o->fresh) {
		char *p;
		const char *parts[] = { "records", "kat", "SHA256SUMS", "system.json", NULL };
		for (i = 0; parts[i]; i++) {
			p = hb_path_join(r.sysdir, parts[i]);
			rc = S_rm_rf(p);
			free(p);
			if (rc)
				goto out;
		}
	} else if ((old = json_load_file(sys_path, 0, NULL)) != NULL) {
		/* resuming: the campaign started when the first run did */
		json_t *c = json_object_get(old, "campaign");
		const char *start = json_string_value(json_object_get(c, "start"));
		const char *prof = json_string_value(json_object_get(c, "profile"));
		if (start && prof && strcmp(prof, r.prof->name) == 0 && strlen(start) < sizeof(r.start))
			snprintf(r.start, sizeof(r.start), "%s", start);
		json_decref(old);
	}
	for (i = 0; r.env->warnings && r.env->warnings[i]; i++)
		S_note(&r, "warning: %s", r.env->warnings[i]);
	if (r.counter.kind != HB_COUNTER_PERF)
		S_note(&r, "warning: no hardware cycle counter here; counting with %s at %.0f MHz",
			hb_counter_name(&r.counter), r.counter_hz / 1e6);
	S_empty_call(&r);
	sys = S_system_json(&r, NULL);
	if ((rc = S_write_json(sys_path, sys)) != 0)
		goto out;

	for (a = 0; a < cat->nalgorithms; a++)
		if (S_selected(o->only, cat->algorithms[a].id))
			r.total += cat->algorithms[a].ninstances * (1 + r.nsizes);

	for (a = 0; a < cat->nalgorithms; a++) {
		hb_algorithm *alg = &cat->algorithms[a];
		if (!S_selected(o->only, alg->id))
			continue;
		if ((rc = S_write_catalog(&r, alg)) != 0 || (rc = S_write_kat_manifest(&r, alg)) != 0)
			goto out;
		for (k = 0; k < alg->ninstances; k++) {
			const hb_instance *inst = &alg->instances[k];
			hb_build_result *b = NULL;
			unsigned long long static_bytes = 0;
			const char *kat;
			char what[256];

			snprintf(what, sizeof(what), "%s (%s) KAT", inst->name, inst->impl);
			if (hb_build(&b, inst, o->profiles, o->work) != 0) {
				char *msg = hb_strdup(hb_error_last());
				S_note(&r, "%s", msg);
				S_kat(&r, inst, NULL, msg);
				free(msg);
				out->build_failed++;
				r.done += 1 + r.nsizes;
				S_progress(&r, what, "build failed");
				continue;
			}
			kat = S_kat(&r, inst, b, NULL);
			r.done++;
			S_progress(&r, what, kat);
			if (strcmp(kat, "PASS") != 0) {
				out->kat_failed++;
				if (!o->time_failed) {
					S_note(&r, "%s (%s): KAT %s, not timed (--time-failed times it anyway)",
						inst->name, inst->impl, kat);
					r.done += r.nsizes;
					hb_build_result_free(b);
					continue;
				}
			}
			if (hb_elf_load_size(&static_bytes, b->library) != 0)
				S_note(&r, "%s", hb_error_last());
			for (i = 0; i < r.nsizes; i++) {
				char *path = S_record_path(&r, inst, r.sizes[i]);
				const char *status;
				snprintf(what, sizeof(what), "%s (%s) hash_%llu", inst->name, inst->impl,
					r.sizes[i]);
				if (!o->fresh && S_record_reusable(&r, path, b)) {
					out->kept++;
					status = "kept";
				} else {
					status = S_measure(&r, inst, b, kat, r.sizes[i], static_bytes);
					if (strcmp(status, "ok") == 0)
						out->measured++;
					else
						out->failed_records++;
				}
				r.done++;
				S_progress(&r, what, status);
				free(path);
			}
			hb_build_result_free(b);
		}
	}
	S_utc_now(end);
	json_decref(sys);
	sys = S_system_json(&r, end);
	if ((rc = S_write_json(sys_path, sys)) != 0)
		goto out;
	rc = hb_write_sha256sums(r.sysdir);
	out->unstable = r.sum.unstable;
out:
	json_decref(sys);
	free(sys_path);
	hb_catalog_free(cat);
	S_teardown(&r);
	return rc;
}
