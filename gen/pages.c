/* pages.c — the page model of one algorithm on one system, with the sections of the reference
 * reports. Its figures come from figures.c, their formats from format.c. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"

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
	hg_node *bc;
	size_t i;
	int first = 1;
	if (hg_across_has(d, id)) {
		/* the algorithm across its systems, then this system among them */
		bc = hg_index_breadcrumb(a);
		hg_add_text(a, bc, " › ");
		hg_add_across_link(a, bc, "../", id, id);
		hg_add_text(a, bc, " › system:");
	} else {
		bc = hg_system_breadcrumb(a, s);
		hg_add_text(a, bc, " › ");
		hg_add_text(a, bc, id);
		hg_add_text(a, bc, " · system:");
	}
	p->breadcrumb = bc;
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
	if (hg_supercop_page(e, sa)) {
		hg_kat **kats = hg_kats_sorted(sa, e);
		hg_supercop_basic(a, body, id, e, kats, sa->nkats);
		free(kats);
	}
}

static void S_kat_section(hg_arena *a, hg_node *body, const hg_system *s, const char *id,
	const hg_entry *e, const hg_sysalg *sa)
{
	static const char *head[] = { "instance", "build flags", "KAT", NULL };
	hg_kat **kats;
	hg_node *p, *t;
	size_t i;

	hg_add_heading(a, body, 2, "3. Functional testing (KAT)");
	if (hg_supercop_page(e, sa)) {
		kats = hg_kats_sorted(sa, e);
		hg_supercop_kat(a, body, s, e, sa, kats, sa->nkats);
		free(kats);
		return;
	}
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
		hg_add_warning(a, p, "No KAT summary for this algorithm on this system.");
		return;
	}
	kats = hg_kats_sorted(sa, e);
	t = hg_add_table(a, body, head, NULL);
	for (i = 0; i < sa->nkats; i++) {
		hg_node *row = hg_add(a, t, HG_ROW), *c, *span;
		hg_add_instance_cell(a, row, kats[i]->instance, kats[i]->implementation);
		hg_add_cell(a, row, kats[i]->build_flags, 0);
		c = hg_add(a, row, HG_CELL);
		span = hg_add(a, c, HG_SPAN);
		span->cls = hg_result_class(kats[i]->result);
		hg_add_text(a, span, kats[i]->result);
		if (strcmp(kats[i]->result, "PASS") != 0 && kats[i]->detail)
			hg_add_textf(a, c, ": %s", kats[i]->detail);
		else if (kats[i]->byte_aligned)
			hg_add_text(a, c, " (byte-aligned entries only: this library hashes whole bytes)");
	}
	free(kats);
}

/* The headline cell with its interval and mark, then median cycles and spread with the mark of a
 * spread above the limit; returns the marks. */
static int S_spread_cells(hg_arena *a, hg_node *row, const hg_record *r, const hg_figures_t *f,
	double limit)
{
	double median = 0, pct = 0;
	int spread = hg_record_spread(r, &median, &pct) == 0;
	hg_headline_fig h;
	char b[HG_FMT];
	hg_node *c;
	int used;

	hg_headline_of(&h, r, f);
	used = hg_headline_cell(a, row, &h, 0);
	if (!spread) {
		hg_add_cell(a, row, "—", 1);
		hg_add_cell(a, row, "—", 1);
		return used;
	}
	hg_add_cell(a, row, hg_fmt_cycles(b, sizeof(b), median), 1);
	c = hg_add_cell(a, row, hg_printf(a, "± %.1f %%", pct), 1);
	if (pct > limit)
		used |= hg_mark_spread(a, c, r->message_bytes, pct, limit);
	if (r->nretries)
		hg_add_textf(a, c, " (%zu %s)", r->nretries, r->nretries == 1 ? "retry" : "retries");
	return used;
}

/* The page's figures to download: its own CSV, the part of the system's downloads that holds
 * them, and the field index. */
static void S_downloads(hg_arena *a, hg_node *body, const hg_system *s, const char *id)
{
	hg_node *p = hg_add(a, body, HG_PARA);
	size_t part = hg_part_of(s, id);
	char name[32];

	hg_part_name(name, sizeof(name), part);
	hg_add_text(a, p, "Download the figures at full precision, each with the record it comes "
		"from and its SHA-256: ");
	hg_add_link(a, p, hg_printf(a, "%s.csv", id), "CSV", NULL);
	hg_add_textf(a, p, " (this page) · part %zu of this system's figures: ", part);
	hg_add_link(a, p, hg_printf(a, "%s.csv", name), "CSV", NULL);
	hg_add_text(a, p, " · ");
	hg_add_link(a, p, hg_printf(a, "%s.json", name), "JSON", NULL);
	hg_add_textf(a, p, " (the downloads come in parts of %d algorithms per system, with an index "
		"giving each part's SHA-256: ", HG_PART_ALGORITHMS);
	hg_add_results_index(a, p);
	hg_add_text(a, p, ")");
}

static void S_perf_section(hg_arena *a, hg_node *body, hg_record **recs, size_t n,
	const hg_sysalg *sa, const char *id, const hg_system *s, int chart, int *noted)
{
	static const char *head[] = { "instance", "message", "mean cycles", "cycles/byte",
		"mean time", "MB/s", "n", "headline cycles/byte", "median cycles", "spread", NULL };
	static const int num[] = { 0, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	double limit = s->spread_limit_pct;
	hg_node *t, *p;
	size_t i, k;
	int marks = 0;

	hg_add_heading(a, body, 2, "4. Performance");
	if (!n) {
		p = hg_add(a, body, HG_PARA);
		hg_add_warning(a, p, "No timing records for this algorithm on this system.");
	} else {
		t = hg_add_table(a, body, head, num);
		hg_unit_header(a, s, t);
		for (i = 0; i < n; i++) {
			const hg_record *r = recs[i];
			hg_node *row = hg_add(a, t, HG_ROW), *c;
			hg_figures_t f;
			char b[HG_FMT];
			hg_add_instance_cell(a, row, r->instance, r->implementation);
			if (r->kat && strcmp(r->kat, "PASS") != 0) {
				hg_add_text(a, row->last, " ");
				hg_add_warning(a, row->last, hg_printf(a, "KAT %s", r->kat));
			}
			hg_add_cell(a, row, hg_fmt_message(b, sizeof(b), r->message_bytes), 1);
			if (strcmp(r->status, "ok") != 0 || hg_record_figures(&f, r) != 0) {
				c = hg_add(a, row, HG_CELL);
				/* "violation: socket" already names its status */
				hg_add_warning(a, c, r->detail && strncmp(r->detail, r->status, strlen(r->status)) == 0 ?
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
		hg_marks_legend(a, body, marks, limit, noted);
	}
	if (n) {
		if (!hg_imported_perf_note(a, body, s, recs, n)) {
			p = hg_add(a, body, HG_PARA);
			hg_add_textf(a, p, "The guide's columns come from the timed rounds. Median %s "
				"and spread come from single calls timed one by one (%s): the spread is their "
				"interquartile range as a percentage of their median; above %.0f %% a spread is "
				"marked unstable. ", hg_unit_name(s),
				s->estimator && strcmp(s->estimator, HG_ESTIMATOR_MEAN) != 0 ?
				"in the fastest pass" : "after the rounds", limit);
			hg_headline_perf_note(a, p, s);
		} else {
			hg_headline_perf_note(a, hg_add(a, body, HG_PARA), s);
		}
		if (chart) {
			p = hg_add(a, body, HG_PARA);
			p->cls = "chart";
			hg_add_image(a, p, hg_printf(a, "%s.svg", id), hg_printf(a, "Chart: %s per byte "
				"against message size of each instance of %s on %s, with SM3 and SHA-256 as "
				"grey dashed lines", hg_unit_name(s), id, s->name), "chart");
		}
		S_downloads(a, body, s, id);
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
		hg_add_warning(a, p, hg_printf(a, "not timed, its KAT check gave %s", kt->result));
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
	t = hg_add_table(a, body, head, num);
	for (i = 0; i < n; i++) {
		const hg_record *r = recs[i];
		hg_node *row = hg_add(a, t, HG_ROW);
		char b[HG_FMT];
		hg_add_instance_cell(a, row, r->instance, r->implementation);
		hg_add_cell(a, row, r->operation, 0);
		hg_add_cell(a, row, r->static_bytes >= 0 ? hg_printf(a, "%lld", r->static_bytes) : "—", 1);
		hg_add_cell(a, row, r->baseline_rss_kib >= 0 ?
			hg_fmt_kib(b, sizeof(b), r->baseline_rss_kib) : "—", 1);
		hg_add_cell(a, row, r->peak_rss_kib >= 0 ? hg_fmt_kib(b, sizeof(b), r->peak_rss_kib) :
			"—", 1);
		hg_memory_cells(a, row, &r->memory);
	}
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
	t = hg_add_table(a, body, head, NULL);
	for (i = 0; i < sa->nfiles; i++) {
		const hg_evfile *f = &sa->files[i];
		const char *inst, *item;
		if (!hg_imported_describe(a, s, f->file, &inst, &item))
			S_describe(a, f->file, &inst, &item);
		hg_imported_check(a, hg_evidence_row(a, t, s, f, inst, item), s, sa, f);
	}
}

/* A row of "Compared with the baselines": the headlines at 1024 and 65536 B and, when the SM3
 * reference was measured, the ratio of the latter to its; returns the marks. */
static int S_yard_row(hg_arena *a, hg_node *t, hg_node *label, const hg_headline_fig *at1k,
	const hg_headline_fig *at64k, const hg_headline_fig *ref, const char *unit)
{
	hg_node *row = hg_add(a, t, HG_ROW), *cell = hg_add(a, row, HG_CELL);
	int used = 0;
	hg_append(cell, label);
	if (at1k->cpb >= 0)
		used |= hg_headline_cell(a, row, at1k, 0);
	else
		hg_add_cell(a, row, "—", 1);
	if (at64k->cpb >= 0)
		used |= hg_headline_cell(a, row, at64k, 0);
	else
		hg_add_cell(a, row, "—", 1);
	if (ref->cpb > 0)
		used |= hg_ratio_cell(a, row, at64k, ref, " ×", unit);
	return used;
}

/* Is any of recs at 65536 B, or a yardstick there, timed paired with the SM3 reference's? */
static int S_any_paired(hg_record **recs, size_t n, const hg_yardsticks *y)
{
	const hg_headline_fig *ref = &y->at[0][HG_AT_65536];
	hg_headline_fig h;
	size_t i;
	for (i = 1; i < HG_NYARD; i++)
		if (hg_paired(&y->at[i][HG_AT_65536], ref))
			return 1;
	for (i = 0; i < n; i++)
		if (recs[i]->message_bytes == 65536 &&
			hg_records_headline_at(&h, recs, n, recs[i], 65536) == 0 && hg_paired(&h, ref))
			return 1;
	return 0;
}

static void S_yardstick_section(hg_arena *a, hg_node *body, const char *id, hg_record **recs,
	size_t n, const hg_yardsticks *y, const hg_system *s, int *noted)
{
	static const char *head[] = { "implementation", "cycles/byte at 1024 B",
		"cycles/byte at 65536 B", "relative to SM3 (reference) at 65536 B", NULL };
	static const int num[] = { 0, 1, 1, 1 };
	const hg_headline_fig *ref = &y->at[0][HG_AT_65536];
	const char *no_ratio[4] = { head[0], head[1], head[2], NULL };
	hg_node *p, *t;
	size_t i, k, missing = 0;
	int used = 0;

	hg_add_heading(a, body, 2, "Compared with the baselines");
	p = hg_add(a, body, HG_PARA);
	hg_add_textf(a, p, "Headline %s per byte on this system (section 4): each "
		"instance of %s beside SM3 and SHA-256, their reference and OpenSSL implementations, "
		"measured in the same campaign. ", hg_unit_name(s), id);
	if (ref->cpb > 0)
		hg_add_textf(a, p, "Below 1.00 × is faster than the SM3 reference; a ratio is shown ± "
			"the half-width of its interval, %sfound from the two figures' intervals (measured at "
			"different moments, so their errors add); a ratio whose two figures' intervals "
			"overlap reads ≈ (within noise): the difference is not shown to be real.",
			S_any_paired(recs, n, y) ? "for two figures timed paired (each side by side with "
			"the campaign's anchor) the quotient of their ratios to it, its interval from their "
			"pairs (≈ where it holds 1), otherwise " : "");
	else
		hg_add_text(a, p, "The SM3 reference was not measured on this system: no ratios.");
	t = hg_add_table(a, body, ref->cpb > 0 ? head : no_ratio, num);
	hg_unit_header(a, s, t);
	for (i = 0; i < n; i++) {
		hg_headline_fig at1k, at64k;
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
		hg_records_headline_at(&at1k, recs, n, recs[i], 1024);
		hg_records_headline_at(&at64k, recs, n, recs[i], 65536);
		used |= S_yard_row(a, t, label, &at1k, &at64k, ref, hg_unit_name(s));
	}
	for (k = 0; k < HG_NYARD; k++) {
		hg_node *label;
		/* a yardstick not measured on this system gets no row of dashes */
		if (!(y->at[k][HG_AT_1024].cpb > 0) && !(y->at[k][HG_AT_65536].cpb > 0)) {
			missing++;
			continue;
		}
		label = hg_node_new(a, HG_SPAN);
		hg_add_text(a, label, hg_yard_names[k]);
		used |= S_yard_row(a, t, label, &y->at[k][HG_AT_1024], &y->at[k][HG_AT_65536], ref,
			hg_unit_name(s));
	}
	if (missing) {
		p = hg_add(a, body, HG_PARA);
		if (missing == HG_NYARD)
			hg_add_textf(a, p, "None of the %d yardsticks was measured on this system: their "
				"rows are left out.", HG_NYARD);
		else
			hg_add_textf(a, p, "%zu of the %d yardsticks %s not measured on this system: %s "
				"left out.", missing, HG_NYARD, missing == 1 ? "was" : "were",
				missing == 1 ? "its row is" : "their rows are");
	}
	hg_marks_legend(a, body, used, s->spread_limit_pct, noted);
}

hg_page *hg_page_algorithm(const hg_data *d, const hg_system *s, const char *id,
	const hg_sysalg *sa, const hg_yardsticks *y, const hg_texts *tx, const hg_sysfigs *all,
	size_t nall, int chart)
{
	hg_page *p = hg_page_new();
	hg_arena *a = p->arena;
	const hg_entry *e = hg_data_entry(d, id);
	hg_record **recs = hg_records_sorted(sa, e);
	S_attr_ctx actx = { s, s->arch && strcmp(s->arch, "aarch64") == 0 ? "ARM" : "x86" };
	hg_node *body = p->body, *para;
	int noted = 0;

	p->root = "../";
	p->title = hg_printf(a, "%s %s — performance on %s (system %s)", id, e ? e->name : id,
		hg_arch_name(s->arch), s->name);
	S_breadcrumb(p, d, s, id);
	hg_add_heading(a, body, 1, p->title);
	para = hg_add(a, body, HG_PARA);
	para->cls = "attribution";
	hg_prose_inline(a, para, tx->attribution, S_attr_lookup, &actx);
	hg_imported_attribution(a, para, s);
	if (s->sandbox_off == 1)
		hg_add_warning(a, hg_add(a, body, HG_PARA), "Measured with --no-sandbox: the libraries ran "
			"with hashbench's own rights, without namespaces, system-call filter or limits.");

	S_basic(a, body, s, id, e, sa);
	hg_add_heading(a, body, 2, "2. Assessment environment");
	hg_env_rows(a, body, s);
	S_kat_section(a, body, s, id, e, sa);
	hg_imported_kat_note(a, body, s, sa);

	S_perf_section(a, body, recs, sa->nrecords, sa, id, s, chart, &noted);
	S_resource_section(a, body, recs, sa->nrecords);
	S_evidence_section(a, body, s, sa);
	if (y)
		S_yardstick_section(a, body, id, recs, sa->nrecords, y, s, &noted);
	para = hg_add(a, body, HG_PARA);
	hg_add_text(a, para, "Every algorithm measured on this system, side by side: ");
	hg_add_link(a, para, "compare.html", hg_printf(a, "%s comparison", s->name), NULL);
	hg_add_text(a, para, " (and its ");
	hg_add_link(a, para, "index.html", hg_printf(a, "index of %s", s->name), NULL);
	hg_add_text(a, para, ").");
	hg_section_other_systems(a, body, id, s, all, nall, &noted);

	p->footer = hg_node_new(a, HG_PARA);
	hg_add_textf(a, p->footer, "Generated by %s from evidence %s.", tx->generator,
		hg_measured_by(a, s));
	free(recs);
	return p;
}

