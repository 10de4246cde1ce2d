/* page_supercop.c — a SUPERCOP crypto_hash primitive on its algorithm page: SUPERCOP, its
 * designers and each implementation's path in section 1; in section 3 the two checksums of each
 * implementation, the compiler settings tried and the implementations not run here. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"

int hg_supercop_page(const hg_entry *e, const hg_sysalg *sa)
{
	size_t i;
	if (e && e->supercop)
		return 1;
	for (i = 0; i < sa->nkats; i++)
		if (sa->kats[i].supercop)
			return 1;
	return 0;
}

/* The version of SUPERCOP the evidence names: the catalog's, else the first summary's. */
static const char *S_version(const hg_entry *e, const hg_sysalg *sa)
{
	size_t i;
	if (e && e->supercop && e->supercop->version)
		return e->supercop->version;
	for (i = 0; i < sa->nkats; i++)
		if (sa->kats[i].supercop && sa->kats[i].supercop->version)
			return sa->kats[i].supercop->version;
	return NULL;
}

static void S_result(hg_arena *a, hg_node *c, const char *result, const char *detail)
{
	hg_node *span = hg_add(a, c, HG_SPAN);
	span->cls = hg_result_class(result);
	hg_add_text(a, span, result);
	if (strcmp(result, "PASS") != 0 && detail)
		hg_add_textf(a, c, ": %s", detail);
}

/* Multi-line catalog text (a designers file) on one line. */
static const char *S_one_line(hg_arena *a, const char *text)
{
	char *s = hg_strdup(a, text), *p;
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\r'))
		s[--n] = 0;
	for (p = s; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	return s;
}

void hg_supercop_basic(hg_arena *a, hg_node *body, const char *id, const hg_entry *e,
	hg_kat *const *kats, size_t nkats)
{
	static const char *head[] = { "implementation", "path in SUPERCOP", "implementors",
		"sources (SHA-256)", NULL };
	const hg_sc_primitive *pr = e ? e->supercop : NULL;
	hg_node *p, *t;
	size_t i;
	char b[HG_FMT];

	p = hg_add(a, body, HG_PARA);
	hg_add_textf(a, p, "Source: SUPERCOP %s, ", pr && pr->version ? pr->version :
		"(version not recorded)");
	hg_add_code(a, p, hg_printf(a, "%s/%s", pr && pr->operation ? pr->operation : "crypto_hash",
		pr && pr->primitive ? pr->primitive : id));
	hg_add_text(a, p, ", measured through the same sandbox, estimator and pages as the NGCC "
		"candidates.");
	p = hg_add(a, body, HG_PARA);
	hg_add_textf(a, p, "Designers: %s", pr && pr->designers ? S_one_line(a, pr->designers) :
		"not available");
	if (pr && pr->description) {
		p = hg_add(a, body, HG_PARA);
		hg_add_textf(a, p, "Description: %s", S_one_line(a, pr->description));
	}
	if (!nkats)
		return;
	t = hg_add_table(a, body, head, NULL);
	for (i = 0; i < nkats; i++) {
		const hg_sc_impl *m = kats[i]->supercop;
		hg_node *row = hg_add(a, t, HG_ROW), *c;
		c = hg_add(a, row, HG_CELL);
		hg_add_code(a, c, kats[i]->implementation);
		c = hg_add(a, row, HG_CELL);
		if (m && m->path)
			hg_add_code(a, c, m->path);
		else
			hg_add_text(a, c, "—");
		hg_add_cell(a, row, m && m->implementors ? S_one_line(a, m->implementors) :
			"not available", 0);
		hg_add_cell(a, row, m ? hg_fmt_sha_short(b, sizeof(b), m->sources_sha256) : "—", 0);
	}
}

/* The settings tried on one implementation, when there were several; try's figure is read
 * from the counter of the system's architecture, and converted and named as its figures are. */
static void S_settings(hg_arena *a, hg_node *body, const hg_kat *k, const hg_system *s,
	const hg_compiler_names *cn)
{
	static const char *head[] = { "compiler", "checksumsmall", "checksumbig",
		"cycles at 1536 B (try)", "result", NULL };
	static const int num[] = { 0, 0, 0, 1, 0 };
	const hg_sc_impl *m = k->supercop;
	hg_node *t;
	size_t i;
	char b[HG_FMT];

	hg_add_heading(a, body, 3, hg_printf(a, "Compiler settings tried: %s (%s)", k->instance,
		k->implementation));
	t = hg_add_table(a, body, head, num);
	hg_unit_header(a, s, t);
	for (i = 0; i < m->nsettings; i++) {
		const hg_sc_setting *st = &m->settings[i];
		hg_node *row = hg_add(a, t, HG_ROW), *c = hg_add(a, row, HG_CELL);
		hg_add_compiler(a, c, cn, st->compiler);
		if (m->compiler && strcmp(m->compiler, st->compiler) == 0)
			hg_add_text(a, c, " (chosen)");
		else if (st->within_noise)
			hg_add_text(a, c, " (within noise of the chosen)");
		if (st->turns_ratio > 0)
			hg_add_text(a, c, hg_printf(a, " %.3f× (%.3f–%.3f) the fastest by try, in turns",
				st->turns_ratio, st->turns_low, st->turns_high));
		hg_add_cell(a, row, hg_fmt_sha_short(b, sizeof(b), st->checksumsmall), 0);
		hg_add_cell(a, row, hg_fmt_sha_short(b, sizeof(b), st->checksumbig), 0);
		hg_add_cell(a, row, st->cycles < 0 ? "—" : s->cycles_per_tick > 0 ? hg_printf(a, "%.0f",
			(double)st->cycles * s->cycles_per_tick) : hg_printf(a, "%lld", st->cycles), 1);
		S_result(a, hg_add(a, row, HG_CELL), st->result, st->detail);
	}
}

/* The setting an implementation was built with: the chosen one, else the one tried. */
static void S_compiler_cell(hg_arena *a, hg_node *c, const hg_sc_impl *m,
	const hg_compiler_names *cn)
{
	if (m && m->compiler) {
		hg_add_compiler(a, c, cn, m->compiler);
	} else if (m && m->nsettings == 1) {
		hg_add_compiler(a, c, cn, m->settings[0].compiler);
	} else if (m && m->nsettings) {
		hg_add_textf(a, c, "none of %zu settings passed", m->nsettings);
	} else {
		hg_add_text(a, c, "not recorded");
	}
}

/* One row per checksum file of a summary (one row when it has none). */
static void S_checksum_rows(hg_arena *a, hg_node *t, const hg_kat *k,
	const hg_compiler_names *cn)
{
	const hg_sc_impl *m = k->supercop;
	size_t i, n = m ? m->nfiles : 0;
	char b[HG_FMT];

	for (i = 0; i < (n ? n : 1); i++) {
		const hg_katfile *f = n ? &m->files[i] : NULL;
		hg_node *row = hg_add(a, t, HG_ROW), *c = hg_add(a, row, HG_CELL);
		hg_add_code(a, c, k->implementation);
		S_compiler_cell(a, hg_add(a, row, HG_CELL), m, cn);
		hg_add_cell(a, row, f ? f->name : "—", 0);
		hg_add_cell(a, row, !f ? "—" : f->expected ? hg_fmt_sha_short(b, sizeof(b), f->expected) :
			"none", 0);
		hg_add_cell(a, row, f ? hg_fmt_sha_short(b, sizeof(b), f->sha256) : "—", 0);
		c = hg_add(a, row, HG_CELL);
		if (f)
			S_result(a, c, f->result, f->detail);
		else
			S_result(a, c, k->result, k->detail);
	}
}

/* The checksums of an unverified summary, "small big" (either may be "none"). */
static const char *S_pair(hg_arena *a, const hg_kat *k)
{
	const char *small = NULL, *big = NULL;
	size_t i;
	for (i = 0; k->supercop && i < k->supercop->nfiles; i++) {
		const hg_katfile *f = &k->supercop->files[i];
		if (strcmp(f->name, "checksumsmall") == 0)
			small = f->sha256;
		else if (strcmp(f->name, "checksumbig") == 0)
			big = f->sha256;
	}
	return hg_printf(a, "%s %s", small ? small : "none", big ? big : "none");
}

/* Implementations whose primitive has no checksums: unverified, said so, and whether their
 * checksums agree with each other (a consistency check, never a verification). */
static void S_unverified(hg_arena *a, hg_node *body, hg_kat *const *kats, size_t nkats)
{
	size_t i, k, n = 0, groups = 0;
	const char **pairs = hg_alloc(a, (nkats ? nkats : 1) * sizeof(*pairs));
	hg_node *p, *list;
	char b[HG_FMT];

	for (i = 0; i < nkats; i++)
		if (strcmp(kats[i]->result, "UNVERIFIED") == 0)
			pairs[n++] = S_pair(a, kats[i]);
	if (!n)
		return;
	p = hg_add(a, body, HG_PARA);
	hg_add_warning(a, p, hg_printf(a, "%zu %s unverified:", n, n == 1 ? "implementation is" :
		"implementations are"));
	hg_add_text(a, p, " the tree has no ");
	hg_add_code(a, p, "checksumsmall");
	hg_add_text(a, p, " or ");
	hg_add_code(a, p, "checksumbig");
	hg_add_text(a, p, " for this primitive, so their digests were compared with nothing "
		"(SUPERCOP reports them \"unknown\"); they were built, run and timed as SUPERCOP times "
		"them, and no figure of theirs is ranked.");
	for (i = 0; i < n; i++) {
		for (k = 0; k < i && strcmp(pairs[k], pairs[i]) != 0; k++)
			;
		groups += k == i;
	}
	p = hg_add(a, body, HG_PARA);
	hg_add_text(a, p, "Consistency check (not a verification): ");
	if (n == 1) {
		hg_add_text(a, p, "it is the only unverified implementation here, with nothing to compare "
			"it with.");
		return;
	}
	if (groups == 1) {
		hg_add_textf(a, p, "all %zu print the same checksums.", n);
		return;
	}
	hg_add_textf(a, p, "they print %zu different pairs of checksums:", groups);
	list = hg_add(a, body, HG_LIST);
	for (i = 0; i < n; i++) {
		hg_node *item;
		size_t j, m = 0;
		for (k = 0; k < i && strcmp(pairs[k], pairs[i]) != 0; k++)
			;
		if (k < i)
			continue;
		item = hg_add(a, list, HG_ITEM);
		hg_add_textf(a, item, "checksumsmall %s, ", hg_fmt_sha_short(b, sizeof(b), pairs[i]));
		hg_add_textf(a, item, "checksumbig %s: ", hg_fmt_sha_short(b, sizeof(b),
			strchr(pairs[i], ' ') + 1));
		for (j = 0, k = 0; j < nkats; j++)
			if (strcmp(kats[j]->result, "UNVERIFIED") == 0 && strcmp(pairs[k++], pairs[i]) == 0) {
				if (m++)
					hg_add_text(a, item, ", ");
				hg_add_code(a, item, kats[j]->implementation);
			}
	}
}

void hg_supercop_kat(hg_arena *a, hg_node *body, const hg_system *s, const hg_entry *e,
	const hg_sysalg *sa, hg_kat *const *kats, size_t nkats)
{
	static const char *head[] = { "implementation", "compiler", "checksum", "expected",
		"obtained", "result", NULL };
	const hg_sc_primitive *pr = e ? e->supercop : NULL;
	const char *version = S_version(e, sa);
	hg_node *p, *t;
	size_t i;

	p = hg_add(a, body, HG_PARA);
	hg_add_textf(a, p, "Each implementation was checked by SUPERCOP%s%s's own procedure before "
		"timing: the tree's ", version ? " " : "", version ? version : "");
	hg_add_code(a, p, "crypto_hash/try.c");
	hg_add_text(a, p, ", compiled with the implementation at the compiler setting named below "
		"(as eBASH names it) and run in the sandbox, prints ");
	hg_add_code(a, p, "checksumsmall");
	hg_add_text(a, p, " (built with -DSMALL) and ");
	hg_add_code(a, p, "checksumbig");
	hg_add_text(a, p, ", which must equal the primitive's files of those names. An implementation "
		"that fails either is not timed. Checksums show their first 16 hex digits.");
	if (!nkats) {
		p = hg_add(a, body, HG_PARA);
		hg_add_warning(a, p, "No KAT summary for this primitive on this system.");
	} else {
		hg_compiler_names *cn = hg_compiler_names_new(a);
		for (i = 0; i < nkats; i++) {
			const hg_sc_impl *m = kats[i]->supercop;
			size_t k;
			hg_compiler_names_add(a, cn, m ? m->compiler : NULL);
			for (k = 0; m && k < m->nsettings; k++)
				hg_compiler_names_add(a, cn, m->settings[k].compiler);
		}
		t = hg_add_table(a, body, head, NULL);
		for (i = 0; i < nkats; i++)
			S_checksum_rows(a, t, kats[i], cn);
		hg_compiler_legend(a, body, cn);
		for (i = 0; i < nkats; i++)
			if (kats[i]->supercop && kats[i]->supercop->nsettings > 1)
				S_settings(a, body, kats[i], s, cn);
	}
	S_unverified(a, body, kats, nkats);
	if (!pr || !pr->nnot_run)
		return;
	hg_add_heading(a, body, 3, "Implementations not run here");
	t = hg_add(a, body, HG_LIST);
	for (i = 0; i < pr->nnot_run; i++) {
		const hg_sc_notrun *nr = &pr->not_run[i];
		hg_node *item = hg_add(a, t, HG_ITEM);
		hg_add_code(a, item, nr->implementation);
		if (nr->path) {
			hg_add_text(a, item, " (");
			hg_add_code(a, item, nr->path);
			hg_add_text(a, item, ")");
		}
		hg_add_textf(a, item, ": not run here: %s", nr->reason);
	}
}
