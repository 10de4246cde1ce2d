/* pages.c — the page models: one page per algorithm and system with the sections of the
 * reference reports, the site index, each system's index and method page. Every figure is
 * computed here from the raw trials; formats come from format.c. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "format.h"
#include "headline.h"
#include "memory.h"

#define FMT 128

static const char *S_arch_name(const char *arch)
{
	if (!arch)
		return "an unknown architecture";
	if (strcmp(arch, "x86_64") == 0)
		return "x86-64";
	if (strcmp(arch, "aarch64") == 0)
		return "AArch64";
	return arch;
}

static const char *S_or_na(const char *s)
{
	return s ? s : "not available";
}

/* ---- the environment rows ---- */

static hg_node *S_table(hg_arena *a, hg_node *parent, const char *const *head, const int *numeric)
{
	hg_node *t = hg_add(a, parent, HG_TABLE), *row = hg_add(a, t, HG_ROW);
	size_t i;
	for (i = 0; head[i]; i++)
		hg_add_cell(a, row, head[i], numeric ? numeric[i] : 0);
	return t;
}

static void S_row2(hg_arena *a, hg_node *t, const char *k, const char *v)
{
	hg_node *row = hg_add(a, t, HG_ROW);
	hg_add_cell(a, row, k, 0);
	hg_add_cell(a, row, v, 0);
}

void hg_env_rows(hg_arena *a, hg_node *parent, const hg_system *s);
void hg_env_rows(hg_arena *a, hg_node *parent, const hg_system *s)
{
	static const char *head[] = { "item", "value", NULL };
	hg_node *t = S_table(a, parent, head, NULL);
	char buf[512], start[FMT], end[FMT];

	S_row2(a, t, "processor", hg_printf(a, "%s (CPU %d, one core)", S_or_na(s->processor), s->cpu));
	if (s->machine)
		S_row2(a, t, "machine", s->machine);
	hg_fmt_clock(buf, sizeof(buf), s->governor, s->min_khz, s->max_khz, s->boost_name,
		s->boost_state, s->smt);
	S_row2(a, t, "clock", buf);
	S_row2(a, t, "memory", s->memory_mib >= 0 ? hg_printf(a, "%lld MiB", s->memory_mib) :
		"not available");
	S_row2(a, t, "OS / kernel", hg_printf(a, "%s / %s", S_or_na(s->os), S_or_na(s->kernel)));
	S_row2(a, t, "compiler / build tool", hg_printf(a, "%s / %s", S_or_na(s->compiler),
		S_or_na(s->build_tool)));
	hg_fmt_utc(start, sizeof(start), s->start);
	hg_fmt_utc(end, sizeof(end), s->end);
	S_row2(a, t, "campaign start / end (UTC)", hg_printf(a, "%s / %s", start, end));
}

/* ---- helpers of the algorithm page ---- */

typedef struct {
	const hg_system *s;
	const char *guide;
} S_attr_ctx;

static const char *S_attr_lookup(void *ctx, const char *name)
{
	const S_attr_ctx *c = ctx;
	if (strcmp(name, "guide") == 0)
		return c->guide;
	if (strcmp(name, "system") == 0)
		return c->s->name;
	return NULL;
}

/* Position of an instance in the catalog's parameter sets (unknown ones last, by name). */
static int S_rank(const hg_entry *e, const char *instance)
{
	int i;
	if (!e)
		return 1 << 20;
	for (i = 0; e->parameter_sets[i]; i++)
		if (strcmp(e->parameter_sets[i], instance) == 0)
			return i;
	return 1 << 20;
}

/* the catalog entry whose parameter-set order the sorts follow (one per rendering thread) */
static _Thread_local const hg_entry *S_sort_entry;

static int S_cmp_inst(const char *ia, const char *ma, const char *ib, const char *mb)
{
	int ra = S_rank(S_sort_entry, ia), rb = S_rank(S_sort_entry, ib), c;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if ((c = strcmp(ia, ib)) != 0)
		return c;
	c = (strcmp(mb, "reference") == 0) - (strcmp(ma, "reference") == 0);
	return c ? c : strcmp(ma, mb);
}

static int S_cmp_rec(const void *x, const void *y)
{
	const hg_record *a = *(hg_record *const *)x, *b = *(hg_record *const *)y;
	int c = S_cmp_inst(a->instance, a->implementation, b->instance, b->implementation);
	if (c)
		return c;
	return a->message_bytes < b->message_bytes ? -1 : a->message_bytes > b->message_bytes;
}

hg_record **hg_records_sorted(const hg_sysalg *sa, const hg_entry *e)
{
	hg_record **recs = malloc((sa->nrecords + 1) * sizeof(*recs));
	size_t i;
	if (!recs) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	for (i = 0; i < sa->nrecords; i++)
		recs[i] = &sa->records[i];
	S_sort_entry = e;
	qsort(recs, sa->nrecords, sizeof(*recs), S_cmp_rec);
	return recs;
}

static int S_cmp_kat(const void *x, const void *y)
{
	const hg_kat *a = *(hg_kat *const *)x, *b = *(hg_kat *const *)y;
	return S_cmp_inst(a->instance, a->implementation, b->instance, b->implementation);
}

static void S_instance_cell(hg_arena *a, hg_node *row, const char *instance, const char *impl)
{
	hg_node *c = hg_add(a, row, HG_CELL);
	hg_add_code(a, c, instance);
	if (strcmp(impl, "reference") != 0)
		hg_add_textf(a, c, " (%s)", impl);
}

int hg_record_figures(hg_figures_t *f, const hg_record *r)
{
	unsigned long long it[64] = { 0 }, cy[64] = { 0 }, ns[64] = { 0 };
	unsigned long long *pit = it, *pcy = cy, *pns = ns;
	size_t i;
	int rc;
	if (r->ntrials > 64) {
		pit = malloc(r->ntrials * sizeof(*pit));
		pcy = malloc(r->ntrials * sizeof(*pcy));
		pns = malloc(r->ntrials * sizeof(*pns));
	}
	for (i = 0; i < r->ntrials; i++) {
		pit[i] = r->trials[i].iterations;
		pcy[i] = r->trials[i].cycles;
		pns[i] = r->trials[i].ns;
	}
	rc = hg_figures(f, pit, pcy, pns, r->ntrials, r->message_bytes);
	if (pit != it) {
		free(pit);
		free(pcy);
		free(pns);
	}
	return rc;
}

static hg_node *S_warn(hg_arena *a, hg_node *parent, const char *text)
{
	hg_node *w = hg_add(a, parent, HG_SPAN);
	w->cls = "warning";
	hg_add_text(a, w, text);
	return w;
}

/* What an evidence file is, from its path: ("SM3", "KAT log"), ("SM3", "timing hash_32"). */
static void S_describe(hg_arena *a, const char *rel, const char **inst, const char **item)
{
	const char *base = strrchr(rel, '/');
	const char *sep;
	size_t n;
	base = base ? base + 1 : rel;
	n = strlen(base);
	*inst = "—";
	*item = "file";
	if (strcmp(base, "kat.sha256") == 0) {
		*inst = "all";
		*item = "KAT manifest";
	} else if (strncmp(rel, "records/", 8) == 0 && (sep = strstr(base, "__")) != NULL &&
		n > 5 && strcmp(base + n - 5, ".json") == 0) {
		char *stem = hg_strdup(a, base);
		char *op = hg_strdup(a, sep + 2);
		stem[sep - base] = 0;
		op[strlen(op) - 5] = 0;
		*inst = stem;
		*item = hg_printf(a, "timing %s", op);
	} else if (n > 4 && strcmp(base + n - 4, ".log") == 0) {
		char *stem = hg_strdup(a, base);
		stem[n - 4] = 0;
		*inst = stem;
		*item = "KAT log";
	} else if (n > 5 && strcmp(base + n - 5, ".json") == 0) {
		char *stem = hg_strdup(a, base);
		stem[n - 5] = 0;
		*inst = stem;
		*item = "KAT summary";
	}
}

/* ---- the algorithm page ---- */

static void S_breadcrumb(hg_page *p, const hg_data *d, const hg_system *s, const char *id)
{
	hg_arena *a = p->arena;
	hg_node *bc = hg_node_new(a, HG_PARA);
	size_t i;
	int first = 1;
	p->breadcrumb = bc;
	hg_add_link(a, bc, "../index.html", "Performance measurements", NULL);
	hg_add_text(a, bc, " › ");
	hg_add_link(a, bc, "index.html", s->name, NULL);
	hg_add_text(a, bc, " › ");
	hg_add_text(a, bc, id);
	hg_add_text(a, bc, " · system:");
	for (i = 0; i < d->nsystems; i++) {
		const hg_system *o = &d->systems[i];
		if (!hg_system_has(o, id))
			continue;
		hg_add_text(a, bc, first ? " " : " · ");
		first = 0;
		if (o == s) {
			hg_node *cur = hg_add(a, bc, HG_SPAN);
			cur->cls = "current";
			hg_add_text(a, cur, o->name);
		} else {
			hg_add_link(a, bc, hg_printf(a, "../%s/%s.html", o->name, id), o->name, NULL);
		}
	}
}

/* Catalog links: URLs as they are, relative paths from the site root (pages sit one below). */
static const char *S_site_href(hg_arena *a, const char *href)
{
	if (strncmp(href, "https://", 8) == 0 || strncmp(href, "http://", 7) == 0)
		return href;
	return hg_printf(a, "../%s", href);
}

static void S_basic(hg_arena *a, hg_node *body, const hg_system *s, const char *id,
	const hg_entry *e, const hg_sysalg *sa)
{
	hg_node *p;
	char *impls = NULL;
	size_t i, k;

	hg_add_heading(a, body, 2, "1. Basic information");
	p = hg_add(a, body, HG_PARA);
	hg_add_textf(a, p, "Category: %s; function: %s", e && e->category ? e->category :
		"not available", e && e->function ? e->function : "not available");
	p = hg_add(a, body, HG_PARA);
	hg_add_textf(a, p, "Algorithm: %s", e ? e->name : id);
	/* implementation versions: those with a KAT summary or a record, reference first */
	for (i = 0; i < sa->nkats + sa->nrecords; i++) {
		const char *impl = i < sa->nkats ? sa->kats[i].implementation :
			sa->records[i - sa->nkats].implementation;
		int seen = 0;
		for (k = 0; k < i && !seen; k++)
			seen = strcmp(impl, k < sa->nkats ? sa->kats[k].implementation :
				sa->records[k - sa->nkats].implementation) == 0;
		if (seen)
			continue;
		if (!impls)
			impls = hg_strdup(a, impl);
		else if (strcmp(impl, "reference") == 0)
			impls = hg_printf(a, "reference, %s", impls);
		else
			impls = hg_printf(a, "%s, %s", impls, impl);
	}
	p = hg_add(a, body, HG_PARA);
	hg_add_textf(a, p, "Implementation versions measured: %s", impls ? impls : "none");
	p = hg_add(a, body, HG_PARA);
	hg_add_text(a, p, "Parameter sets: ");
	if (e && e->parameter_sets[0]) {
		char *sets = hg_strdup(a, e->parameter_sets[0]);
		for (i = 1; e->parameter_sets[i]; i++)
			sets = hg_printf(a, "%s, %s", sets, e->parameter_sets[i]);
		hg_add_text(a, p, sets);
	} else {
		hg_add_text(a, p, "not available");
	}
	p = hg_add(a, body, HG_PARA);
	hg_add_text(a, p, "Security evaluation: ");
	if (e && e->security.label && e->security.href)
		hg_add_link(a, p, S_site_href(a, e->security.href), e->security.label, NULL);
	else
		hg_add_text(a, p, e && e->security.label ? e->security.label : "not available");
	p = hg_add(a, body, HG_PARA);
	hg_add_text(a, p, "Measurement method: ");
	hg_add_link(a, p, "method.html", hg_printf(a, "%s method", s->name), NULL);
	p = hg_add(a, body, HG_PARA);
	hg_add_text(a, p, "Submission: ");
	if (e && e->submission.label && e->submission.href)
		hg_add_link(a, p, S_site_href(a, e->submission.href), e->submission.label, NULL);
	else
		hg_add_text(a, p, e && e->submission.label ? e->submission.label : "not available");
}

static void S_kat_section(hg_arena *a, hg_node *body, const hg_system *s, const char *id,
	const hg_sysalg *sa)
{
	static const char *head[] = { "instance", "build flags", "KAT", NULL };
	hg_kat **kats = malloc((sa->nkats + 1) * sizeof(*kats));
	hg_node *p, *t;
	size_t i;

	hg_add_heading(a, body, 2, "3. Functional testing (KAT)");
	p = hg_add(a, body, HG_PARA);
	if (sa->manifest) {
		hg_add_text(a, p, "Each library was checked against the submitted KAT vectors (SHA-256 "
			"manifest ");
		hg_add_link(a, p, hg_printf(a, "../data/%s/%s", s->name, sa->manifest),
			hg_printf(a, "%s/kat.sha256", id), NULL);
		hg_add_text(a, p, ") before timing.");
	} else {
		hg_add_text(a, p, "Each library was checked against the submitted KAT vectors before "
			"timing.");
	}
	if (!sa->nkats) {
		p = hg_add(a, body, HG_PARA);
		S_warn(a, p, "No KAT summary for this algorithm on this system.");
		free(kats);
		return;
	}
	for (i = 0; i < sa->nkats; i++)
		kats[i] = &sa->kats[i];
	qsort(kats, sa->nkats, sizeof(*kats), S_cmp_kat);
	t = S_table(a, body, head, NULL);
	for (i = 0; i < sa->nkats; i++) {
		hg_node *row = hg_add(a, t, HG_ROW), *c, *span;
		S_instance_cell(a, row, kats[i]->instance, kats[i]->implementation);
		hg_add_cell(a, row, kats[i]->build_flags, 0);
		c = hg_add(a, row, HG_CELL);
		span = hg_add(a, c, HG_SPAN);
		span->cls = strcmp(kats[i]->result, "PASS") == 0 ? "pass" : "fail";
		hg_add_text(a, span, kats[i]->result);
		if (strcmp(kats[i]->result, "PASS") != 0 && kats[i]->detail)
			hg_add_textf(a, c, ": %s", kats[i]->detail);
		else if (kats[i]->byte_aligned)
			hg_add_text(a, c, " (byte-aligned entries only: this library hashes whole bytes)");
	}
	free(kats);
}

static int S_cmp_ull(const void *x, const void *y)
{
	unsigned long long a = *(const unsigned long long *)x, b = *(const unsigned long long *)y;
	return a < b ? -1 : a > b;
}

/* Median of the single-call samples and their interquartile range as a percentage of it (the
 * quartiles the campaign uses: sorted[n/4], sorted[3n/4], sorted[n/2]). */
int hg_record_spread(const hg_record *r, double *median, double *pct)
{
	unsigned long long *v;
	size_t n = r->nsamples;
	if (n < 4)
		return -1;
	v = malloc(n * sizeof(*v));
	memcpy(v, r->samples, n * sizeof(*v));
	qsort(v, n, sizeof(*v), S_cmp_ull);
	*median = (double)v[n / 2];
	*pct = *median > 0 ? ((double)v[(3 * n) / 4] - (double)v[n / 4]) / *median * 100 : 0;
	free(v);
	return 0;
}

/* The headline cell with the record's marks, then median cycles and spread; returns the marks. */
static int S_spread_cells(hg_arena *a, hg_node *row, const hg_record *r, const hg_figures_t *f,
	double limit)
{
	double median = 0, pct = 0;
	int spread = hg_record_spread(r, &median, &pct) == 0;
	hg_headline_fig h;
	char b[FMT];
	hg_node *c;
	int used;

	hg_headline_of(&h, r, f);
	c = hg_add_cell(a, row, hg_fmt_cpb(b, sizeof(b), h.cpb), 1);
	used = hg_marks_add(a, c, spread && pct > limit, r->disturbed, r->message_bytes, pct, limit,
		h.estimator);
	if (!spread) {
		hg_add_cell(a, row, "—", 1);
		hg_add_cell(a, row, "—", 1);
		return used;
	}
	hg_add_cell(a, row, hg_fmt_cycles(b, sizeof(b), median), 1);
	c = hg_add_cell(a, row, hg_printf(a, "± %.1f %%", pct), 1);
	if (r->nretries)
		hg_add_textf(a, c, " (%zu %s)", r->nretries, r->nretries == 1 ? "retry" : "retries");
	return used;
}

static void S_perf_section(hg_arena *a, hg_node *body, hg_record **recs, size_t n,
	const hg_sysalg *sa, double limit, const char *id, const hg_system *s, int chart)
{
	static const char *head[] = { "instance", "message", "mean cycles", "cycles/byte",
		"mean time", "MB/s", "n", "headline cycles/byte", "median cycles", "spread", NULL };
	static const int num[] = { 0, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	hg_node *t, *p;
	size_t i, k;
	int marks = 0;

	hg_add_heading(a, body, 2, "4. Performance");
	if (!n) {
		p = hg_add(a, body, HG_PARA);
		S_warn(a, p, "No timing records for this algorithm on this system.");
	} else {
		t = S_table(a, body, head, num);
		for (i = 0; i < n; i++) {
			const hg_record *r = recs[i];
			hg_node *row = hg_add(a, t, HG_ROW), *c;
			hg_figures_t f;
			char b[FMT];
			S_instance_cell(a, row, r->instance, r->implementation);
			if (r->kat && strcmp(r->kat, "PASS") != 0) {
				hg_add_text(a, row->last, " ");
				S_warn(a, row->last, hg_printf(a, "KAT %s", r->kat));
			}
			hg_add_cell(a, row, hg_fmt_message(b, sizeof(b), r->message_bytes), 1);
			if (strcmp(r->status, "ok") != 0 || hg_record_figures(&f, r) != 0) {
				c = hg_add(a, row, HG_CELL);
				/* "violation: socket" already names its status */
				S_warn(a, c, r->detail && strncmp(r->detail, r->status, strlen(r->status)) == 0 ?
					r->detail : hg_printf(a, "%s%s%s", r->status, r->detail ? ": " : "",
					r->detail ? r->detail : ""));
				for (k = 0; k < 7; k++)
					hg_add_cell(a, row, "—", 1);
				continue;
			}
			hg_add_cell(a, row, hg_fmt_cycles(b, sizeof(b), f.mean_cycles), 1);
			hg_add_cell(a, row, hg_fmt_cpb(b, sizeof(b), f.cycles_per_byte), 1);
			hg_add_cell(a, row, hg_fmt_time(b, sizeof(b), f.mean_ns), 1);
			hg_add_cell(a, row, hg_fmt_mbps(b, sizeof(b), f.mbps), 1);
			{
				unsigned long long it[64];
				size_t m = r->ntrials < 64 ? r->ntrials : 64;
				for (k = 0; k < m; k++)
					it[k] = r->trials[k].iterations;
				if (r->ntrials <= 64)
					hg_fmt_n(b, sizeof(b), it, m);
				else
					snprintf(b, sizeof(b), "%llu (%zu rounds)", f.n, r->ntrials);
				hg_add_cell(a, row, b, 1);
			}
			marks |= S_spread_cells(a, row, r, &f, limit);
		}
		hg_marks_legend(a, body, marks, limit);
	}
	if (n) {
		if (!hg_imported_perf_note(a, body, s, recs, n)) {
			p = hg_add(a, body, HG_PARA);
			hg_add_textf(a, p, "The guide's columns come from the timed rounds. Median cycles "
				"and spread come from single calls timed one by one (%s): the spread is their "
				"interquartile range as a percentage of their median; above %.0f %% a figure is "
				"marked unstable. ", s->estimator && strcmp(s->estimator, HG_ESTIMATOR_MEAN) != 0 ?
				"in the fastest pass" : "after the rounds", limit);
			hg_headline_perf_note(a, p, s);
		} else {
			hg_headline_perf_note(a, hg_add(a, body, HG_PARA), s);
		}
		if (chart) {
			p = hg_add(a, body, HG_PARA);
			p->cls = "chart";
			hg_add_image(a, p, hg_printf(a, "%s.svg", id), hg_printf(a, "Chart: cycles per byte "
				"against message size of each instance of %s on %s, with SM3 and SHA-256 as "
				"grey dashed lines", id, s->name), "chart");
		}
		p = hg_add(a, body, HG_PARA);
		hg_add_text(a, p, "Download the figures at full precision, each with the record it comes "
			"from and its SHA-256: ");
		hg_add_link(a, p, hg_printf(a, "%s.csv", id), "CSV", NULL);
		hg_add_text(a, p, " (this page) · ");
		hg_add_link(a, p, "../results.json", "JSON", NULL);
		hg_add_text(a, p, " (every system; ");
		hg_add_link(a, p, "../results.csv", "CSV", NULL);
		hg_add_text(a, p, ")");
	}
	/* libraries that were not timed: their KAT did not pass */
	for (i = 0; i < sa->nkats; i++) {
		const hg_kat *kt = &sa->kats[i];
		int timed = 0;
		if (strcmp(kt->result, "PASS") == 0)
			continue;
		for (k = 0; k < n && !timed; k++)
			timed = strcmp(recs[k]->instance, kt->instance) == 0 &&
				strcmp(recs[k]->implementation, kt->implementation) == 0;
		if (timed)
			continue;
		p = hg_add(a, body, HG_PARA);
		hg_add_code(a, p, kt->instance);
		if (strcmp(kt->implementation, "reference") != 0)
			hg_add_textf(a, p, " (%s)", kt->implementation);
		hg_add_text(a, p, ": ");
		S_warn(a, p, hg_printf(a, "not timed, its KAT check gave %s", kt->result));
	}
}

static void S_resource_section(hg_arena *a, hg_node *body, hg_record **recs, size_t n)
{
	static const char *head[] = { "instance", "operation", "static: ELF image (bytes)",
		"baseline RSS", "peak RSS", "stack", "heap peak", "allocations", NULL };
	static const int num[] = { 0, 0, 1, 1, 1, 1, 1, 1 };
	hg_node *t, *p;
	size_t i;

	hg_add_heading(a, body, 2, "5. Resource consumption");
	p = hg_add(a, body, HG_PARA);
	hg_memory_para(a, p);
	if (!n)
		return;
	t = S_table(a, body, head, num);
	for (i = 0; i < n; i++) {
		const hg_record *r = recs[i];
		hg_node *row = hg_add(a, t, HG_ROW);
		char b[FMT];
		S_instance_cell(a, row, r->instance, r->implementation);
		hg_add_cell(a, row, r->operation, 0);
		hg_add_cell(a, row, r->static_bytes >= 0 ? hg_printf(a, "%lld", r->static_bytes) : "—", 1);
		hg_add_cell(a, row, r->baseline_rss_kib >= 0 ?
			hg_fmt_kib(b, sizeof(b), r->baseline_rss_kib) : "—", 1);
		hg_add_cell(a, row, r->peak_rss_kib >= 0 ? hg_fmt_kib(b, sizeof(b), r->peak_rss_kib) :
			"—", 1);
		hg_memory_cells(a, row, &r->memory);
	}
}

/* One row of an evidence index: what the file is, a link to its copy on the site, its SHA-256
 * and how that compares with SHA256SUMS; returns the SHA-256 cell. */
hg_node *hg_evidence_row(hg_arena *a, hg_node *t, const hg_system *s, const hg_evfile *f,
	const char *inst, const char *item)
{
	hg_node *row = hg_add(a, t, HG_ROW), *c;
	char b[FMT];
	c = hg_add(a, row, HG_CELL);
	if (strcmp(inst, "—") && strcmp(inst, "all"))
		hg_add_code(a, c, inst);
	else
		hg_add_text(a, c, inst);
	hg_add_cell(a, row, item, 0);
	c = hg_add(a, row, HG_CELL);
	if (f->state == HG_SUM_MISSING) {
		hg_add_code(a, c, f->file);
	} else {
		hg_node *l = hg_add_link(a, c, hg_printf(a, "../data/%s/%s", s->name, f->file), NULL,
			hg_printf(a, "sha256 %s", f->sha256));
		hg_add_code(a, l, f->file);
	}
	c = hg_add(a, row, HG_CELL);
	if (f->sha256[0])
		hg_add_code(a, c, hg_fmt_sha_short(b, sizeof(b), f->sha256));
	if (f->state == HG_SUM_MISMATCH || f->state == HG_SUM_UNLISTED)
		hg_add_text(a, c, " ");
	switch (f->state) {
	case HG_SUM_MISMATCH:
		S_warn(a, c, hg_printf(a, "does not match SHA256SUMS (%s)",
			hg_fmt_sha_short(b, sizeof(b), f->listed)));
		break;
	case HG_SUM_UNLISTED:
		S_warn(a, c, "not listed in SHA256SUMS");
		break;
	case HG_SUM_MISSING:
		S_warn(a, c, "listed in SHA256SUMS but missing");
		break;
	default:
		break;
	}
	return c;
}

static void S_evidence_section(hg_arena *a, hg_node *body, const hg_system *s,
	const hg_sysalg *sa)
{
	static const char *head[] = { "instance", "item", "file", "sha256", NULL };
	hg_node *t, *p;
	size_t i;

	hg_add_heading(a, body, 2, "7. Raw evidence index");
	p = hg_add(a, body, HG_PARA);
	hg_add_textf(a, p, "Paths are relative to data/%s/; each file links to its copy on this "
		"site, which ", s->name);
	hg_add_code(a, p, "sha256sum -c");
	hg_add_text(a, p, " checks against ");
	hg_add_link(a, p, hg_printf(a, "../data/%s/SHA256SUMS", s->name), "SHA256SUMS", NULL);
	hg_add_text(a, p, ". Each JSON record holds its command, environment and every round.");
	hg_imported_evidence_note(a, p, s);
	if (!sa->nfiles)
		return;
	t = S_table(a, body, head, NULL);
	for (i = 0; i < sa->nfiles; i++) {
		const hg_evfile *f = &sa->files[i];
		const char *inst, *item;
		if (!hg_imported_describe(a, s, f->file, &inst, &item))
			S_describe(a, f->file, &inst, &item);
		hg_imported_check(a, hg_evidence_row(a, t, s, f, inst, item), s, sa, f);
	}
}

/* ---- the yardsticks ---- */

const char *const hg_yard_names[HG_NYARD] = { "SM3 (reference)", "SM3 (OpenSSL)",
	"SHA-256 (reference)", "SHA-256 (OpenSSL)" };

/* cycles/byte of a record when it is instance:impl at bytes and measured, else < 0 */
static double S_cpb_match(const hg_record *r, const char *instance, const char *impl,
	unsigned long long bytes)
{
	hg_figures_t f;
	hg_headline_fig h;
	if (r->message_bytes == bytes && strcmp(r->instance, instance) == 0 &&
		strcmp(r->implementation, impl) == 0 && strcmp(r->status, "ok") == 0 &&
		hg_record_figures(&f, r) == 0) {
		hg_headline_of(&h, r, &f);
		return h.cpb;
	}
	return -1;
}

static double S_cpb_of(const hg_record *recs, size_t n, const char *instance, const char *impl,
	unsigned long long bytes)
{
	size_t i;
	double v = -1;
	for (i = 0; i < n && v < 0; i++)
		v = S_cpb_match(&recs[i], instance, impl, bytes);
	return v;
}

static double S_cpb_of_rec(hg_record **recs, size_t n, const hg_record *like,
	unsigned long long bytes)
{
	size_t i;
	double v = -1;
	for (i = 0; i < n && v < 0; i++)
		v = S_cpb_match(recs[i], like->instance, like->implementation, bytes);
	return v;
}

void hg_yardsticks_of(hg_yardsticks *out, const hg_sysalg *sm3, const hg_sysalg *sha2)
{
	size_t k;
	for (k = 0; k < HG_NSIZES; k++) {
		out->cpb[0][k] = sm3 ? S_cpb_of(sm3->records, sm3->nrecords, "SM3", "reference",
			hg_sizes[k]) : -1;
		out->cpb[1][k] = sm3 ? S_cpb_of(sm3->records, sm3->nrecords, "SM3", "openssl",
			hg_sizes[k]) : -1;
		out->cpb[2][k] = sha2 ? S_cpb_of(sha2->records, sha2->nrecords, "SHA-256", "reference",
			hg_sizes[k]) : -1;
		out->cpb[3][k] = sha2 ? S_cpb_of(sha2->records, sha2->nrecords, "SHA-256", "openssl",
			hg_sizes[k]) : -1;
	}
}

static void S_yard_row(hg_arena *a, hg_node *t, hg_node *label, double c1, double c2, double ref)
{
	hg_node *row = hg_add(a, t, HG_ROW), *cell = hg_add(a, row, HG_CELL);
	char b[FMT];
	hg_append(cell, label);
	hg_add_cell(a, row, c1 >= 0 ? hg_fmt_cpb(b, sizeof(b), c1) : "—", 1);
	hg_add_cell(a, row, c2 >= 0 ? hg_fmt_cpb(b, sizeof(b), c2) : "—", 1);
	hg_add_cell(a, row, c2 >= 0 && ref > 0 ? hg_printf(a, "%.2f ×", c2 / ref) : "—", 1);
}

static void S_yardstick_section(hg_arena *a, hg_node *body, const char *id, hg_record **recs,
	size_t n, const hg_yardsticks *y)
{
	static const char *head[] = { "implementation", "cycles/byte at 1024 B",
		"cycles/byte at 65536 B", "relative to SM3 (reference) at 65536 B", NULL };
	static const int num[] = { 0, 1, 1, 1 };
	double ref = y->cpb[0][HG_AT_65536];
	hg_node *p, *t;
	size_t i, k;

	hg_add_heading(a, body, 2, "Compared with the baselines");
	p = hg_add(a, body, HG_PARA);
	hg_add_textf(a, p, "Headline cycles per byte on this system (section 4): each "
		"instance of %s beside SM3 and SHA-256, their reference and OpenSSL implementations, "
		"measured in the same campaign. Below 1.00 × is faster than the SM3 reference.", id);
	t = S_table(a, body, head, num);
	for (i = 0; i < n; i++) {
		hg_node *label;
		int seen = 0;
		for (k = 0; k < i && !seen; k++)
			seen = strcmp(recs[k]->instance, recs[i]->instance) == 0 &&
				strcmp(recs[k]->implementation, recs[i]->implementation) == 0;
		if (seen)
			continue;
		label = hg_node_new(a, HG_SPAN);
		hg_add_code(a, label, recs[i]->instance);
		hg_add_textf(a, label, " (%s)", recs[i]->implementation);
		S_yard_row(a, t, label, S_cpb_of_rec(recs, n, recs[i], 1024),
			S_cpb_of_rec(recs, n, recs[i], 65536), ref);
	}
	for (k = 0; k < HG_NYARD; k++) {
		hg_node *label = hg_node_new(a, HG_SPAN);
		hg_add_text(a, label, hg_yard_names[k]);
		S_yard_row(a, t, label, y->cpb[k][HG_AT_1024], y->cpb[k][HG_AT_65536], ref);
	}
}

hg_page *hg_page_algorithm(const hg_data *d, const hg_system *s, const char *id,
	const hg_sysalg *sa, const hg_yardsticks *y, const hg_texts *tx, const hg_sysfigs *all,
	size_t nall, int chart, double *out_headline)
{
	hg_page *p = hg_page_new();
	hg_arena *a = p->arena;
	const hg_entry *e = hg_data_entry(d, id);
	hg_record **recs = hg_records_sorted(sa, e);
	S_attr_ctx actx = { s, s->arch && strcmp(s->arch, "aarch64") == 0 ? "ARM" : "x86" };
	hg_node *body = p->body, *para;
	size_t i;

	S_sort_entry = e;
	p->root = "../";
	p->title = hg_printf(a, "%s %s — performance on %s (system %s)", id, e ? e->name : id,
		S_arch_name(s->arch), s->name);
	S_breadcrumb(p, d, s, id);
	hg_add_heading(a, body, 1, p->title);
	para = hg_add(a, body, HG_PARA);
	para->cls = "attribution";
	hg_prose_inline(a, para, tx->attribution, S_attr_lookup, &actx);
	hg_imported_attribution(a, para, s);
	if (s->sandbox_off == 1)
		S_warn(a, hg_add(a, body, HG_PARA), "Measured with --no-sandbox: the libraries ran "
			"with hashbench's own rights, without namespaces, system-call filter or limits.");

	S_basic(a, body, s, id, e, sa);
	hg_add_heading(a, body, 2, "2. Assessment environment");
	hg_env_rows(a, body, s);
	S_kat_section(a, body, s, id, sa);
	hg_imported_kat_note(a, body, s, sa);

	S_perf_section(a, body, recs, sa->nrecords, sa, s->spread_limit_pct, id, s, chart);
	S_resource_section(a, body, recs, sa->nrecords);
	S_evidence_section(a, body, s, sa);
	if (y)
		S_yardstick_section(a, body, id, recs, sa->nrecords, y);
	para = hg_add(a, body, HG_PARA);
	hg_add_text(a, para, "Every algorithm measured on this system, side by side: ");
	hg_add_link(a, para, "compare.html", hg_printf(a, "%s comparison", s->name), NULL);
	hg_add_text(a, para, ".");
	hg_section_other_systems(a, body, id, s, all, nall);

	*out_headline = -1;
	for (i = 0; i < sa->nrecords; i++) {
		hg_figures_t f;
		if (strcmp(recs[i]->implementation, "reference") == 0 &&
			recs[i]->message_bytes == 65536 && strcmp(recs[i]->status, "ok") == 0 &&
			hg_record_figures(&f, recs[i]) == 0) {
			hg_headline_fig h;
			hg_headline_of(&h, recs[i], &f);
			*out_headline = h.cpb;
			break;
		}
	}
	p->footer = hg_node_new(a, HG_PARA);
	hg_add_textf(a, p->footer, "Generated by %s from evidence %s.", tx->generator,
		hg_measured_by(a, s));
	free(recs);
	return p;
}

/* ---- index pages ---- */

static void S_headline_cell(hg_arena *a, hg_node *row, const char *href, double cpb)
{
	hg_node *c = hg_add(a, row, HG_CELL);
	char b[FMT];
	c->level = 1;
	hg_add_link(a, c, href, cpb >= 0 ? hg_printf(a, "%s cycles/byte",
		hg_fmt_cpb(b, sizeof(b), cpb)) : "no figure", NULL);
}

hg_page *hg_page_index(const hg_data *d, const char *const *ids, size_t nids,
	const double *headlines, const hg_texts *tx)
{
	hg_page *p = hg_page_new();
	hg_arena *a = p->arena;
	hg_node *body = p->body, *t, *row, *para;
	size_t i, k;

	p->title = "Performance measurements";
	p->breadcrumb = hg_node_new(a, HG_PARA);
	hg_add_text(a, p->breadcrumb, "Performance measurements");
	hg_add_heading(a, body, 1, p->title);
	para = hg_add(a, body, HG_PARA);
	hg_add_text(a, para, "Every algorithm on every measured system; each figure is cycles per "
		"byte at 65536 B of the first reference instance, and links to the algorithm's page.");
	para = hg_add(a, body, HG_PARA);
	hg_add_text(a, para, "Every algorithm of a system side by side:");
	for (k = 0; k < d->nsystems; k++) {
		hg_add_text(a, para, k ? " · " : " ");
		hg_add_link(a, para, hg_printf(a, "%s/compare.html", d->systems[k].name),
			hg_printf(a, "%s comparison", d->systems[k].name), NULL);
	}
	hg_add_text(a, para, ". Every figure of every system, with the record it comes from and its "
		"SHA-256: ");
	hg_add_link(a, para, "results.csv", "CSV", NULL);
	hg_add_text(a, para, " · ");
	hg_add_link(a, para, "results.json", "JSON", NULL);
	t = hg_add(a, body, HG_TABLE);
	row = hg_add(a, t, HG_ROW);
	hg_add_cell(a, row, "algorithm", 0);
	hg_add_cell(a, row, "name", 0);
	for (k = 0; k < d->nsystems; k++) {
		hg_node *c = hg_add(a, row, HG_CELL);
		c->level = 1;
		hg_add_link(a, c, hg_printf(a, "%s/index.html", d->systems[k].name), d->systems[k].name,
			NULL);
	}
	for (i = 0; i < nids; i++) {
		const hg_entry *e = hg_data_entry(d, ids[i]);
		row = hg_add(a, t, HG_ROW);
		hg_add_cell(a, row, ids[i], 0);
		hg_add_cell(a, row, e ? e->name : "—", 0);
		for (k = 0; k < d->nsystems; k++) {
			if (hg_system_has(&d->systems[k], ids[i]))
				S_headline_cell(a, row, hg_printf(a, "%s/%s.html", d->systems[k].name, ids[i]),
					headlines[k * nids + i]);
			else
				hg_add_cell(a, row, "—", 1);
		}
	}
	hg_imported_index_note(a, body, d);
	p->footer = hg_node_new(a, HG_PARA);
	hg_add_textf(a, p->footer, "Generated by %s.", tx->generator);
	return p;
}

hg_page *hg_page_system(const hg_data *d, const hg_system *s, const char *const *ids,
	size_t nids, const double *headlines, const hg_texts *tx)
{
	hg_page *p = hg_page_new();
	hg_arena *a = p->arena;
	hg_node *body = p->body, *t, *row, *para;
	size_t i, si = (size_t)(s - d->systems);
	size_t w;

	p->root = "../";
	p->title = hg_printf(a, "System %s — %s", s->name, S_arch_name(s->arch));
	p->breadcrumb = hg_node_new(a, HG_PARA);
	hg_add_link(a, p->breadcrumb, "../index.html", "Performance measurements", NULL);
	hg_add_textf(a, p->breadcrumb, " › %s", s->name);
	hg_add_heading(a, body, 1, p->title);
	para = hg_add(a, body, HG_PARA);
	hg_add_text(a, para, "How this system was measured: ");
	hg_add_link(a, para, "method.html", hg_printf(a, "%s method", s->name), NULL);
	hg_add_textf(a, para, " (profile %s). Every algorithm of this system side by side: ",
		s->profile);
	hg_add_link(a, para, "compare.html", hg_printf(a, "%s comparison", s->name), NULL);
	hg_add_text(a, para, ".");
	hg_add_heading(a, body, 2, "Assessment environment");
	hg_env_rows(a, body, s);
	for (w = 0; s->warnings[w]; w++) {
		para = hg_add(a, body, HG_PARA);
		S_warn(a, para, s->warnings[w]);
	}
	hg_add_heading(a, body, 2, "Algorithms");
	t = hg_add(a, body, HG_TABLE);
	row = hg_add(a, t, HG_ROW);
	hg_add_cell(a, row, "algorithm", 0);
	hg_add_cell(a, row, "name", 0);
	hg_add_cell(a, row, "cycles/byte at 65536 B", 1);
	for (i = 0; i < nids; i++) {
		const hg_entry *e = hg_data_entry(d, ids[i]);
		if (!hg_system_has(s, ids[i]))
			continue;
		row = hg_add(a, t, HG_ROW);
		hg_add_cell(a, row, NULL, 0);
		hg_add_link(a, row->last, hg_printf(a, "%s.html", ids[i]), ids[i], NULL);
		hg_add_cell(a, row, e ? e->name : "—", 0);
		S_headline_cell(a, row, hg_printf(a, "%s.html", ids[i]), headlines[si * nids + i]);
	}
	p->footer = hg_node_new(a, HG_PARA);
	hg_add_textf(a, p->footer, "Generated by %s from evidence %s.", tx->generator,
		hg_measured_by(a, s));
	return p;
}

/* ---- the method page ---- */

typedef struct {
	const hg_system *s;
	hg_arena *a;
} S_method_ctx;

static const char *S_method_lookup(void *ctx, const char *name)
{
	const S_method_ctx *c = ctx;
	const hg_system *s = c->s;
	char b[512];
	if (strcmp(name, "system") == 0)
		return s->name;
	if (strcmp(name, "processor") == 0)
		return S_or_na(s->processor);
	if (strcmp(name, "cpu") == 0)
		return hg_printf(c->a, "%d", s->cpu);
	if (strcmp(name, "counter") == 0)
		return s->counter;
	if (strcmp(name, "counter-hz") == 0)
		return s->counter_hz > 0 ? hg_printf(c->a, "%.3f GHz", (double)s->counter_hz / 1e9) :
			"its own rate (core cycles)";
	if (strcmp(name, "clock") == 0)
		return hg_strdup(c->a, hg_fmt_clock(b, sizeof(b), s->governor, s->min_khz, s->max_khz,
			s->boost_name, s->boost_state, s->smt));
	if (strcmp(name, "profile") == 0)
		return s->profile;
	if (strcmp(name, "rounds") == 0)
		return s->rounds >= 0 ? hg_printf(c->a, "%lld", s->rounds) : "not recorded";
	if (strcmp(name, "round-ms") == 0)
		return s->round_ms >= 0 ? hg_printf(c->a, "%lld ms", s->round_ms) : "not recorded";
	if (strcmp(name, "max-calls") == 0)
		return s->max_calls >= 0 ? hg_printf(c->a, "%lld", s->max_calls) : "not recorded";
	if (strcmp(name, "compiler") == 0)
		return S_or_na(s->compiler);
	if (strcmp(name, "sandbox") == 0)
		return s->sandbox ? s->sandbox : "Not recorded.";
	if (strcmp(name, "schedule") == 0)
		return s->schedule ? s->schedule : "Not recorded.";
	if (strcmp(name, "hashbench") == 0)
		return s->hashbench;
	if (strcmp(name, "counter-read") == 0)
		return s->counter_read_cycles >= 0 ? hg_printf(c->a, "%lld cycles", s->counter_read_cycles) :
			"not measured";
	if (strcmp(name, "empty-call") == 0)
		return s->empty_call_cycles >= 0 ? hg_printf(c->a, "%.1f cycles", s->empty_call_cycles) :
			"not measured";
	if (strcmp(name, "overhead-policy") == 0)
		return s->overhead_subtracted == 1 ? "subtracted from" :
			s->overhead_subtracted == 0 ? "included in" : "not stated for";
	if (strcmp(name, "spread-limit") == 0)
		return hg_printf(c->a, "%.0f %%", s->spread_limit_pct);
	return hg_headline_lookup(c->a, s, name);
}

hg_page *hg_page_method(const hg_data *d, const hg_system *s, const hg_texts *tx)
{
	hg_page *p = hg_page_new();
	hg_arena *a = p->arena;
	S_method_ctx ctx = { s, a };
	size_t w;
	(void)d;

	p->root = "../";
	p->title = hg_printf(a, "How system %s was measured", s->name);
	p->breadcrumb = hg_node_new(a, HG_PARA);
	hg_add_link(a, p->breadcrumb, "../index.html", "Performance measurements", NULL);
	hg_add_text(a, p->breadcrumb, " › ");
	hg_add_link(a, p->breadcrumb, "index.html", s->name, NULL);
	hg_add_text(a, p->breadcrumb, " › method");
	hg_add_heading(a, p->body, 1, p->title);
	if (s->imported)
		hg_imported_method(a, p->body, s);
	else
		hg_prose(a, p->body, tx->method, S_method_lookup, &ctx);
	if (!s->imported)
		hg_sentinel_method(a, p->body, s);
	if (s->warnings[0]) {
		hg_add_heading(a, p->body, 2, "What may disturb the figures");
		for (w = 0; s->warnings[w]; w++)
			S_warn(a, hg_add(a, p->body, HG_PARA), s->warnings[w]);
	}
	p->footer = hg_node_new(a, HG_PARA);
	if (s->imported)
		hg_add_textf(a, p->footer, "Generated by %s from evidence %s.", tx->generator,
			hg_measured_by(a, s));
	else
		hg_add_textf(a, p->footer, "Generated by %s.", tx->generator);
	return p;
}
