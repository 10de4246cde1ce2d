/* sentinel.c — the machine's speed during a campaign: sentinel.json (every timing of the fixed
 * sentinel workload) and system.json's campaign.sentinel read as untrusted input, the method
 * page's part on them and the trace chart sentinel.svg. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "chart.h"
#include "memory.h"
#include "sitewide.h"

#define S_SCHEMA "hashbench.sentinel/1"

/* ---- reading ---- */

static int S_bad(const char *file, const char *path, const char *what)
{
	return hg_error_set("%s: %s: %s", file, path, what);
}

static int S_field_int(long long *out, json_t *o, const char *file, const char *prefix,
	const char *key, int required)
{
	json_t *v = json_object_get(o, key);
	char path[96];
	snprintf(path, sizeof path, "%s%s", prefix, key);
	*out = -1;
	if (!v || json_is_null(v))
		return required ? S_bad(file, path, v ? "expected an integer, got null" : "missing") : 0;
	if (!json_is_integer(v))
		return S_bad(file, path, "expected an integer");
	if (json_integer_value(v) < 0)
		return S_bad(file, path, "expected an integer of 0 or more");
	*out = (long long)json_integer_value(v);
	return 0;
}

/* A number of 0 or more; optional ones absent or null leave *out as it is. */
static int S_field_num(double *out, json_t *o, const char *file, const char *prefix,
	const char *key, int required)
{
	json_t *v = json_object_get(o, key);
	char path[96];
	snprintf(path, sizeof path, "%s%s", prefix, key);
	if (!v || json_is_null(v))
		return required ? S_bad(file, path, v ? "expected a number, got null" : "missing") : 0;
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
		return S_bad(file, path, "expected a number of 0 or more");
	*out = json_number_value(v);
	return 0;
}

static int S_field_str(char **out, json_t *o, const char *file, const char *prefix,
	const char *key, int required)
{
	json_t *v = json_object_get(o, key);
	char path[96];
	snprintf(path, sizeof path, "%s%s", prefix, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return required ? S_bad(file, path, v ? "expected a string, got null" : "missing") : 0;
	if (!json_is_string(v))
		return S_bad(file, path, "expected a string");
	*out = hg_xstrdup(json_string_value(v));
	return 0;
}

/* How the limit was set: noise_floor_pct, limit_floor_pct, limit_source (and limit_pct) of
 * sentinel.json or of system.json's campaign.sentinel; what o has replaces what was read. */
static int S_limit_fields(hg_sentinel *t, json_t *o, const char *file, const char *prefix)
{
	char *src = NULL;
	if (S_field_num(&t->noise_floor_pct, o, file, prefix, "noise_floor_pct", 0) ||
		S_field_num(&t->limit_floor_pct, o, file, prefix, "limit_floor_pct", 0) ||
		S_field_num(&t->campaign_limit_pct, o, file, prefix, "limit_pct", 0) ||
		S_field_str(&src, o, file, prefix, "limit_source", 0))
		return -1;
	if (src) {
		free(t->limit_source);
		t->limit_source = src;
	}
	return 0;
}

static int S_reading(hg_reading *r, json_t *o, const char *file, size_t i)
{
	char prefix[48];
	snprintf(prefix, sizeof prefix, "readings[%zu].", i);
	if (!json_is_object(o)) {
		snprintf(prefix, sizeof prefix, "readings[%zu]", i);
		return S_bad(file, prefix, "expected an object");
	}
	if (S_field_str(&r->time, o, file, prefix, "time", 0) ||
		S_field_num(&r->t_s, o, file, prefix, "t_s", 1) ||
		S_field_int(&r->cpu, o, file, prefix, "cpu", 1) ||
		S_field_str(&r->record, o, file, prefix, "record", 0) ||
		S_field_str(&r->when, o, file, prefix, "when", 1) ||
		S_field_int(&r->attempt, o, file, prefix, "attempt", 0) ||
		S_field_int(&r->cycles, o, file, prefix, "cycles", 1) ||
		S_field_int(&r->ns, o, file, prefix, "ns", 0))
		return -1;
	if (strcmp(r->when, "calibration") && strcmp(r->when, "before") && strcmp(r->when, "after")) {
		snprintf(prefix, sizeof prefix, "readings[%zu].when", i);
		return S_bad(file, prefix, "expected \"calibration\", \"before\" or \"after\"");
	}
	if (r->record && !hg_sums_path_ok(r->record)) {
		snprintf(prefix, sizeof prefix, "readings[%zu].record", i);
		return S_bad(file, prefix, "a path that leaves the system folder: refused");
	}
	if (r->attempt < 0)
		r->attempt = 0;
	return 0;
}

int hg_sentinel_parse(hg_sentinel *out, const char *text, size_t len, const char *file)
{
	json_error_t err;
	json_t *j = json_loadb(text, len, 0, &err), *v, *readings, *o;
	size_t i;
	int rc = -1;

	out->traced = 1;
	out->limit_pct = 3.0;
	if (!j)
		return hg_error_set("%s:%d:%d: malformed JSON: %s", file, err.line, err.column, err.text);
	if (!json_is_object(j)) {
		hg_error_set("%s: expected a JSON object", file);
		goto out;
	}
	v = json_object_get(j, "schema");
	if (!v || !json_is_string(v)) {
		S_bad(file, "schema", v ? "expected a string" : "missing");
		goto out;
	}
	if (strcmp(json_string_value(v), S_SCHEMA) != 0) {
		hg_error_set("%s: schema: unknown version \"%s\" (this hashgen reads %s)", file,
			json_string_value(v), S_SCHEMA);
		goto out;
	}
	if (S_field_str(&out->workload, j, file, "", "workload", 0) ||
		S_field_num(&out->limit_pct, j, file, "", "limit_pct", 0))
		goto out;
	if (!(out->limit_pct > 0)) {
		S_bad(file, "limit_pct", "expected a number above 0");
		goto out;
	}
	if (S_limit_fields(out, j, file, "") != 0)
		goto out;
	readings = json_object_get(j, "readings");
	if (!json_is_array(readings)) {
		S_bad(file, "readings", readings ? "expected an array" : "missing");
		goto out;
	}
	out->readings = calloc(json_array_size(readings) + 1, sizeof(hg_reading));
	if (!out->readings) {
		hg_error_set("%s: out of memory", file);
		goto out;
	}
	json_array_foreach(readings, i, o) {
		out->nreadings = i + 1;
		if (S_reading(&out->readings[i], o, file, i) != 0)
			goto out;
	}
	rc = 0;
out:
	json_decref(j);
	return rc;
}

/* system.json's campaign.sentinel: the counts the pages show. */
static int S_campaign(hg_sentinel *t, json_t *cs, const char *file)
{
	json_t *m, *v;
	const char *key;
	if (!json_is_object(cs))
		return S_bad(file, "campaign.sentinel", "expected an object");
	if (S_field_int(&t->readings_count, cs, file, "campaign.sentinel.", "readings", 0) ||
		S_field_int(&t->disturbed_records, cs, file, "campaign.sentinel.", "disturbed_records",
			0) ||
		S_field_int(&t->remeasured_records, cs, file, "campaign.sentinel.",
			"remeasured_records", 0) ||
		S_limit_fields(t, cs, file, "campaign.sentinel."))
		return -1;
	if (!t->traced) {
		/* sentinel.json is the record of the readings; without it system.json says what ran */
		if (S_field_str(&t->workload, cs, file, "campaign.sentinel.", "workload", 0) ||
			S_field_num(&t->limit_pct, cs, file, "campaign.sentinel.", "limit_pct", 0))
			return -1;
	} else {
		json_t *w = json_object_get(cs, "workload"), *l = json_object_get(cs, "limit_pct");
		if (w && !json_is_null(w) && !json_is_string(w))
			return S_bad(file, "campaign.sentinel.workload", "expected a string");
		if (l && !json_is_null(l) && !json_is_number(l))
			return S_bad(file, "campaign.sentinel.limit_pct", "expected a number");
	}
	m = json_object_get(cs, "median_cycles");
	if (m && !json_is_null(m)) {
		if (!json_is_object(m))
			return S_bad(file, "campaign.sentinel.median_cycles", "expected an object");
		json_object_foreach(m, key, v)
			if (!json_is_number(v)) {
				char path[160];
				snprintf(path, sizeof path, "campaign.sentinel.median_cycles.%.100s", key);
				return S_bad(file, path, "expected a number");
			}
	}
	return 0;
}

int hg_sentinel_load(hg_system *s, json_t *campaign_sentinel, const char *sysfile)
{
	char *path = hg_xprintf("%s/sentinel.json", s->dir), *text = NULL;
	size_t len = 0;
	int have = access(path, F_OK) == 0, listed = hg_system_sum(s, "sentinel.json") != NULL;
	int rc = -1;
	hg_sentinel *t;

	if (!have && !listed && (!campaign_sentinel || json_is_null(campaign_sentinel))) {
		free(path);
		return 0;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		free(path);
		return hg_error_set("%s: out of memory", sysfile);
	}
	t->readings_count = t->disturbed_records = t->remeasured_records = -1;
	t->noise_floor_pct = t->limit_floor_pct = t->campaign_limit_pct = -1;
	t->limit_pct = 3.0;
	s->sentinel = t;
	if (have || listed)
		t->file.file = hg_xstrdup("sentinel.json");
	if (have) {
		if (hg_read_file(&text, &len, path) != 0 || hg_sentinel_parse(t, text, len, path) != 0)
			goto out;
		hg_sha256_hex(t->file.sha256, text, len);
		hg_evfile_check(&t->file, s);
	} else if (listed) {
		memcpy(t->file.listed, hg_system_sum(s, "sentinel.json"), 65);
		t->file.state = HG_SUM_MISSING;
	}
	if (campaign_sentinel && !json_is_null(campaign_sentinel) &&
		S_campaign(t, campaign_sentinel, sysfile) != 0)
		goto out;
	rc = 0;
out:
	free(text);
	free(path);
	return rc;
}

void hg_sentinel_free(hg_sentinel *t)
{
	size_t i;
	if (!t)
		return;
	for (i = 0; i < t->nreadings; i++) {
		free(t->readings[i].time);
		free(t->readings[i].record);
		free(t->readings[i].when);
	}
	free(t->readings);
	free(t->workload);
	free(t->limit_source);
	free(t->file.file);
	free(t);
}

/* ---- the figures ---- */

static int S_cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

/* Evidence of this hashbench (it states how its limit was set) judges a reading one-sided
 * against the tenth percentile of its CPU's readings, the machine at its usual best; earlier
 * evidence both ways against their median. */
static int S_one_sided(const hg_sentinel *t)
{
	return t->limit_source != NULL;
}

/* The reference cycles of one CPU's readings: their tenth percentile, or earlier their median. */
static double S_median(const hg_sentinel *t, long long cpu)
{
	long long *v = calloc(t->nreadings + 1, sizeof(long long));
	size_t n = 0, i;
	double m;
	for (i = 0; i < t->nreadings; i++)
		if (t->readings[i].cpu == cpu)
			v[n++] = t->readings[i].cycles;
	qsort(v, n, sizeof(long long), S_cmp_ll);
	m = n == 0 ? 0 : S_one_sided(t) ? (double)v[(size_t)(0.10 * (double)(n - 1))] :
		n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
	free(v);
	return m;
}

/* The CPUs of the readings, sorted, distinct; returns how many. */
static size_t S_cpus(long long **out, const hg_sentinel *t)
{
	long long *v = calloc(t->nreadings + 1, sizeof(long long));
	size_t n = 0, i, k;
	for (i = 0; i < t->nreadings; i++)
		v[n++] = t->readings[i].cpu;
	qsort(v, n, sizeof(long long), S_cmp_ll);
	for (i = 0, k = 0; i < n; i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	*out = v;
	return k;
}

static double S_dev(const hg_reading *r, double median)
{
	return median > 0 ? ((double)r->cycles - median) / median * 100.0 : 0;
}

static int S_off(const hg_sentinel *t, double dev)
{
	return (S_one_sided(t) ? dev : fabs(dev)) > t->limit_pct;
}

/* How many readings lie outside the band around their CPU's reference. */
static size_t S_outside(const hg_sentinel *t)
{
	long long *cpus;
	size_t n = S_cpus(&cpus, t), k, i, out = 0;
	for (k = 0; k < n; k++) {
		double m = S_median(t, cpus[k]);
		for (i = 0; i < t->nreadings; i++)
			if (t->readings[i].cpu == cpus[k] && S_off(t, S_dev(&t->readings[i], m)))
				out++;
	}
	free(cpus);
	return out;
}

/* Distinct records with a reading of a later attempt: measured again. */
static size_t S_remeasured(const hg_sentinel *t)
{
	size_t i, k, n = 0;
	for (i = 0; i < t->nreadings; i++) {
		int seen = 0;
		if (!t->readings[i].record || t->readings[i].attempt <= 0)
			continue;
		for (k = 0; k < i && !seen; k++)
			seen = t->readings[k].record && t->readings[k].attempt > 0 &&
				strcmp(t->readings[k].record, t->readings[i].record) == 0;
		n += !seen;
	}
	return n;
}

int hg_sentinel_svg(char **out, size_t *len, const hg_system *s)
{
	const hg_sentinel *t = s->sentinel;
	long long *cpus = NULL;
	size_t ncpu, k, i, at = 0;
	hg_trace_point *pts;
	hg_trace_series *series;
	char **labels;
	hg_chart_trace c;
	int rc;

	*out = NULL;
	if (!t || !t->traced)
		return hg_error_set("%s: the machine's speed was not traced", s->name);
	ncpu = S_cpus(&cpus, t);
	pts = calloc(t->nreadings + 1, sizeof(*pts));
	series = calloc(ncpu + 1, sizeof(*series));
	labels = calloc(2 * t->nreadings + ncpu + 1, sizeof(char *));
	for (k = 0; k < ncpu; k++) {
		double m = S_median(t, cpus[k]);
		series[k].points = pts + at;
		labels[k] = hg_xprintf(S_one_sided(t) ? "CPU %lld (usual best %.0f cycles)" :
			"CPU %lld (median %.0f cycles)", cpus[k], m);
		series[k].label = labels[k];
		for (i = 0; i < t->nreadings; i++) {
			const hg_reading *r = &t->readings[i];
			hg_trace_point *p;
			if (r->cpu != cpus[k])
				continue;
			p = &pts[at++];
			p->x = r->t_s;
			p->y = S_dev(r, m);
			p->outside = S_off(t, p->y);
			p->title = labels[ncpu + i] = hg_xprintf("%.1f s, CPU %lld, %s%s%s%s: %lld cycles "
				"(%+.1f %%)", r->t_s, r->cpu, r->when, r->record ? " " : "",
				r->record ? r->record : "", r->attempt > 0 ? " (measured again)" : "",
				r->cycles, p->y);
			series[k].npoints++;
		}
	}
	memset(&c, 0, sizeof(c));
	c.title = hg_xprintf("Machine speed on %s: the sentinel workload's cycles during the "
		"campaign", s->name);
	c.desc = S_one_sided(t) ? hg_xprintf("One point per timing of the sentinel workload on "
		"system %s (%zu readings): x is the time since the campaign's start in seconds, y the "
		"cycles in %% above or below the tenth percentile of that CPU's readings (the machine "
		"at its usual best); one series per CPU. The shaded band is ±%g %%; readings more than "
		"%g %% above it are drawn as hollow red markers.", s->name, t->nreadings,
		t->limit_pct, t->limit_pct) : hg_xprintf("One point per timing of the sentinel "
		"workload on system %s (%zu readings): x is the time since the campaign's start in "
		"seconds, y the cycles in %% above or below the median of that CPU's readings; one "
		"series per CPU. The shaded band is ±%g %%; readings outside it are drawn as hollow "
		"red markers.", s->name, t->nreadings, t->limit_pct);
	c.x_label = "time since the campaign's start (s)";
	c.y_label = S_one_sided(t) ? "cycles vs. the CPU's usual best (%)" :
		"cycles vs. the CPU's median (%)";
	c.band = t->limit_pct;
	c.series = series;
	c.nseries = ncpu;
	rc = hg_chart_trace_svg(out, len, &c);
	free((char *)c.title);
	free((char *)c.desc);
	for (i = 0; i < 2 * t->nreadings + ncpu; i++)
		free(labels[i]);
	free(labels);
	free(series);
	free(pts);
	free(cpus);
	return rc;
}

/* ---- on the method page ---- */

void hg_sentinel_method(hg_arena *a, hg_node *body, const hg_system *s)
{
	const hg_sentinel *t = s->sentinel;
	hg_node *p, *tbl, *row;
	static const char *head[] = { "instance", "item", "file", "sha256", NULL };
	size_t k;

	hg_add_heading(a, body, 2, "Machine speed during the campaign");
	if (!t || !t->traced) {
		p = hg_add(a, body, HG_PARA);
		hg_add_text(a, p, "The machine's speed was not traced during this campaign (evidence "
			"of an earlier hashbench version).");
		if (!t || !t->file.file)
			return;
	} else {
		size_t outside = S_outside(t);
		p = hg_add(a, body, HG_PARA);
		hg_add_text(a, p, "The campaign times a fixed sentinel workload on each timing CPU "
			"when the timing starts, and the measuring driver times it again in every record, "
			"after the warm-up and after the last call: ");
		hg_add_text(a, p, t->workload ? t->workload : "workload not described");
		if (S_one_sided(t))
			hg_add_textf(a, p, ". It is timed again by the measuring driver before and after "
				"every pass; a pass whose workload was more than %g %% slower than the "
				"machine's usual best on that CPU (the tenth percentile of the readings so far) "
				"is not calm (see \"What disturbed means\" above).", t->limit_pct);
		else
			hg_add_textf(a, p, ". A record is measured again (at most twice) when the "
				"workload's cycles before or after it lie more than %g %% from the campaign's "
				"running median on that CPU, and is marked disturbed when they still do after "
				"the retries.", t->limit_pct);
		{
			long long nr = t->readings_count >= 0 ? t->readings_count : (long long)t->nreadings;
			long long nm = t->remeasured_records >= 0 ? t->remeasured_records :
				(long long)S_remeasured(t);
			p = hg_add(a, body, HG_PARA);
			hg_add_textf(a, p, "This campaign: %lld reading%s of the workload (%zu outside the "
				"band around their CPU's %s), %lld record%s %s, %s%s disturbed.", nr,
				nr == 1 ? "" : "s", outside, S_one_sided(t) ? "usual best" : "median", nm,
				nm == 1 ? "" : "s", S_one_sided(t) ? "with a pass that was not calm" :
				"measured again", S_one_sided(t) ? "" : "still ",
				t->disturbed_records < 0 ? "records not recorded as" :
				hg_printf(a, "%lld record%s", t->disturbed_records,
					t->disturbed_records == 1 ? "" : "s"));
		}
		p = hg_add(a, body, HG_PARA);
		p->cls = "chart";
		hg_add_image(a, p, "sentinel.svg", hg_printf(a, "Chart: the sentinel workload's cycles "
			"on %s against the time since the campaign's start, in %% of each CPU's %s, "
			"with the ±%g %% band", s->name, S_one_sided(t) ? "usual best" : "median",
			t->limit_pct), "chart");
	}
	tbl = hg_add(a, body, HG_TABLE);
	row = hg_add(a, tbl, HG_ROW);
	for (k = 0; head[k]; k++)
		hg_add_cell(a, row, head[k], 0);
	hg_evidence_row(a, tbl, s, &t->file, "—", "machine-speed readings");
}

/* ---- into the site ---- */

int hg_site_sentinel(const char *tmp, const hg_system *s)
{
	char *svg = NULL, *from, *dir, *to;
	size_t len = 0;
	int rc;

	if (!s->sentinel || !s->sentinel->traced)
		return 0;
	if (hg_sentinel_svg(&svg, &len, s) != 0)
		return -1;
	rc = hg_site_write_beside(tmp, s->name, "sentinel.svg", svg, len);
	free(svg);
	if (rc != 0)
		return -1;
	from = hg_xprintf("%s/sentinel.json", s->dir);
	dir = hg_xprintf("%s/data/%s", tmp, s->name);
	to = hg_xprintf("%s/sentinel.json", dir);
	rc = hg_mkdirs(dir) == 0 && hg_site_copy(from, to) == 0 ? 0 : -1;
	free(from);
	free(dir);
	free(to);
	return rc;
}
