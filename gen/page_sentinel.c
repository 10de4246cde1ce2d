/* page_sentinel.c — the machine's speed during a campaign on its method page: the workload, the
 * limit, what the readings found, the trace chart sentinel.svg and sentinel.json in an evidence
 * table. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"
#include "render.h"

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

/* One tick of the system's counter in the unit of its pages (its declared conversion, else 1). */
static double S_per_tick(const hg_system *s)
{
	return s->cycles_per_tick > 0 ? s->cycles_per_tick : 1;
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
		labels[k] = hg_xprintf(S_one_sided(t) ? "CPU %lld (usual best %.0f %s)" :
			"CPU %lld (median %.0f %s)", cpus[k], m * S_per_tick(s), hg_unit_name(s));
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
			p->title = labels[ncpu + i] = hg_xprintf("%.1f s, CPU %lld, %s%s%s%s: %.0f %s "
				"(%+.1f %%)", r->t_s, r->cpu, r->when, r->record ? " " : "",
				r->record ? r->record : "", r->attempt > 0 ? " (measured again)" : "",
				(double)r->cycles * S_per_tick(s), hg_unit_name(s), p->y);
			series[k].npoints++;
		}
	}
	memset(&c, 0, sizeof(c));
	c.title = hg_xprintf("Machine speed on %s: the sentinel workload's %s during the "
		"campaign", s->name, hg_unit_name(s));
	c.desc = hg_unit_words(s, S_one_sided(t) ? hg_xprintf("One point per timing of the sentinel workload on "
		"system %s (%zu %s): x is the time since the campaign's start in seconds, y the "
		"cycles in %% above or below the tenth percentile of that CPU's readings (the machine "
		"at its usual best); one series per CPU. The shaded band is ±%g %%; readings more than "
		"%g %% above it are drawn as hollow red markers.", s->name, t->nreadings,
		hg_plural(t->nreadings, "reading", "readings"), t->limit_pct, t->limit_pct) :
		hg_xprintf("One point per timing of the sentinel "
		"workload on system %s (%zu %s): x is the time since the campaign's start in "
		"seconds, y the cycles in %% above or below the median of that CPU's readings; one "
		"series per CPU. The shaded band is ±%g %%; readings outside it are drawn as hollow "
		"red markers.", s->name, t->nreadings, hg_plural(t->nreadings, "reading", "readings"),
		t->limit_pct));
	c.x_label = "time since the campaign's start (s)";
	c.y_label = hg_unit_words(s, hg_xprintf(S_one_sided(t) ?
		"cycles vs. the CPU's usual best (%%)" : "cycles vs. the CPU's median (%%)"));
	c.band = t->limit_pct;
	c.series = series;
	c.nseries = ncpu;
	rc = hg_chart_trace_svg(out, len, &c);
	free((char *)c.title);
	free((char *)c.desc);
	free((char *)c.y_label);
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
				"workload's %s before or after it lie more than %g %% from the campaign's "
				"running median on that CPU, and is marked disturbed when they still do after "
				"the retries.", hg_unit_name(s), t->limit_pct);
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
		hg_add_image(a, p, "sentinel.svg", hg_printf(a, "Chart: the sentinel workload's %s "
			"on %s against the time since the campaign's start, in %% of each CPU's %s, "
			"with the ±%g %% band", hg_unit_name(s), s->name, S_one_sided(t) ? "usual best" :
			"median", t->limit_pct), "chart");
	}
	tbl = hg_add(a, body, HG_TABLE);
	row = hg_add(a, tbl, HG_ROW);
	for (k = 0; head[k]; k++)
		hg_add_cell(a, row, head[k], 0);
	hg_evidence_row(a, tbl, s, &t->file, "—", "machine-speed readings");
}

