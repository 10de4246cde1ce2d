/* imported_site.c — how the site shows a system another tool measured and `hashbench import`
 * converted: who measured and who imported on every page, the tool's own method page and each
 * record beside its original in the evidence index. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "pages.h"

/* "ngcc-harness 2.1 (git 43b4800b0f7d)"; short_commit cuts a commit to 12 digits. */
static const char *S_tool(hg_arena *a, const hg_import *im, int short_commit)
{
	const char *t = im->version ? hg_printf(a, "%s %s", im->tool, im->version) : im->tool;
	if (im->commit)
		t = hg_printf(a, "%s (git %.*s)", t, short_commit ? 12 : (int)strlen(im->commit),
			im->commit);
	return t;
}

static const char *S_importer(hg_arena *a, const hg_system *s)
{
	return s->imported->imported_by ? s->imported->imported_by :
		hg_printf(a, "hashbench %s", s->hashbench);
}

const char *hg_measured_by(hg_arena *a, const hg_system *s)
{
	if (!s->imported)
		return hg_printf(a, "measured by hashbench %s", s->hashbench);
	return hg_printf(a, "measured with %s and imported by %s", S_tool(a, s->imported, 1),
		S_importer(a, s));
}

void hg_imported_attribution(hg_arena *a, hg_node *para, const hg_system *s)
{
	if (!s->imported)
		return;
	hg_add_textf(a, para, " Measured with %s and imported by %s; how it measured: ",
		S_tool(a, s->imported, 1), S_importer(a, s));
	hg_add_link(a, para, "method.html", hg_printf(a, "%s method", s->name), NULL);
	hg_add_text(a, para, ".");
}

int hg_imported_perf_note(hg_arena *a, hg_node *body, const hg_system *s, hg_record **recs,
	size_t n)
{
	size_t i;
	if (!s->imported)
		return 0;
	for (i = 0; i < n; i++)
		if (recs[i]->nsamples)
			return 0; /* it timed single calls: hashbench's own paragraph says what they give */
	hg_add_textf(a, hg_add(a, body, HG_PARA), "The guide's columns come from the timed rounds, "
		"the trials %s recorded. It timed no single calls one by one, so median %s and "
		"spread are not available (—) and no figure is marked unstable.", s->imported->tool,
		hg_unit_name(s));
	return 1;
}

void hg_imported_kat_note(hg_arena *a, hg_node *body, const hg_system *s, const hg_sysalg *sa)
{
	size_t i, k;
	if (!s->imported)
		return;
	for (i = 0; i < sa->nkats; i++) {
		const char *note = sa->kats[i].import_note;
		int seen = 0;
		for (k = 0; k < i && note && !seen; k++)
			seen = sa->kats[k].import_note && strcmp(sa->kats[k].import_note, note) == 0;
		if (note && !seen)
			hg_add_textf(a, hg_add(a, body, HG_PARA), "As %s checked them: %s%s",
				s->imported->tool, note, *note && strchr(".!?", note[strlen(note) - 1]) ? "" :
				".");
	}
}

void hg_imported_evidence_note(hg_arena *a, hg_node *para, const hg_system *s)
{
	if (!s->imported)
		return;
	hg_add_textf(a, para, " Each record was converted by hashbench import from the %s original "
		"listed with it (under ", s->imported->tool);
	hg_add_code(a, para, HG_ORIGINALS "/");
	hg_add_text(a, para, "), which it names with its SHA-256: every figure of this page "
		"recomputes from the trials of the original.");
}

static int S_is_original(const char *rel)
{
	return strncmp(rel, HG_ORIGINALS "/", sizeof(HG_ORIGINALS)) == 0;
}

int hg_imported_describe(hg_arena *a, const hg_system *s, const char *rel, const char **inst,
	const char **item)
{
	const char *base = strrchr(rel, '/') + 1, *sep;
	size_t n = strlen(base);
	if (!s->imported || !S_is_original(rel))
		return 0;
	*inst = "—";
	*item = hg_printf(a, "%s original", s->imported->tool);
	if ((sep = strstr(base, "__")) != NULL && n > 5 && strcmp(base + n - 5, ".json") == 0) {
		char *stem = hg_strdup(a, base), *op = hg_strdup(a, sep + 2);
		stem[sep - base] = 0;
		op[strlen(op) - 5] = 0;
		*inst = stem;
		*item = hg_printf(a, "%s original of timing %s", s->imported->tool, op);
	}
	return 1;
}

void hg_imported_check(hg_arena *a, hg_node *cell, const hg_system *s, const hg_sysalg *sa,
	const hg_evfile *f)
{
	const hg_record *r = NULL;
	int original = S_is_original(f->file);
	char b[128];
	size_t i;

	if (!s->imported)
		return;
	/* an original's record names it; a record is named by its own path */
	for (i = 0; i < sa->nrecords && !r; i++) {
		const char *key = original ? sa->records[i].original : sa->records[i].file;
		if (key && strcmp(key, f->file) == 0)
			r = &sa->records[i];
	}
	if (original) {
		if (!r) {
			hg_add_text(a, cell, " ");
			hg_add_warning(a, cell, "no record names this original");
		} else if (f->sha256[0] && strcmp(r->original_sha256, f->sha256) != 0) {
			hg_add_text(a, cell, " ");
			hg_add_warning(a, cell, hg_printf(a, "its record names another SHA-256 (%s)",
				hg_fmt_sha_short(b, sizeof(b), r->original_sha256)));
		}
	} else if (r && r->original) {
		for (i = 0; i < sa->nfiles; i++)
			if (strcmp(sa->files[i].file, r->original) == 0 &&
				sa->files[i].state != HG_SUM_MISSING)
				return;
		hg_add_text(a, cell, " ");
		hg_add_warning(a, cell, hg_printf(a, "its original %s is missing", r->original));
	}
}

void hg_imported_index_note(hg_arena *a, hg_node *body, const hg_data *d)
{
	hg_node *p = NULL;
	size_t k;
	for (k = 0; k < d->nsystems; k++) {
		const hg_system *s = &d->systems[k];
		if (!s->imported)
			continue;
		if (!p) {
			p = hg_add(a, body, HG_PARA);
			hg_add_text(a, p, "Measured by another tool and imported, their figures computed "
				"the same way from the trials it recorded:");
		} else {
			hg_add_text(a, p, " ·");
		}
		hg_add_text(a, p, " ");
		hg_add_link(a, p, hg_printf(a, "%s/method.html", s->name), s->name, NULL);
		hg_add_textf(a, p, " with %s", S_tool(a, s->imported, 1));
	}
	if (p)
		hg_add_text(a, p, ".");
}

/* ---- the method page ---- */

static const hg_evfile *S_file(const hg_import *im, const char *rel)
{
	size_t i;
	for (i = 0; i < im->nfiles; i++)
		if (strcmp(im->files[i].file, rel) == 0 && im->files[i].state != HG_SUM_MISSING)
			return &im->files[i];
	return NULL;
}

/* Where a link of the tool's page leads on this site, or NULL: its pages and files are not
 * here. A link to an algorithm's page (<id>.md, <id>.html) leads to the algorithm's page of
 * this system; a link to one of the system's originals, to its copy. */
static const char *S_target(hg_arena *a, const hg_system *s, const char *href)
{
	size_t n = strcspn(href, "?#");
	char *path, *base, *dot;
	if (strncmp(href, "https://", 8) == 0 || strncmp(href, "http://", 7) == 0)
		return href;
	if (!n)
		return NULL;
	path = hg_strdup(a, href);
	path[n] = 0;
	if (S_file(s->imported, path))
		return hg_printf(a, "../data/%s/%s", s->name, path);
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	dot = strrchr(base, '.');
	if (dot && (strcmp(dot, ".md") == 0 || strcmp(dot, ".html") == 0)) {
		*dot = 0;
		if (hg_system_has(s, base))
			return hg_printf(a, "%s.html", base);
	}
	return NULL;
}

/* The tool's page below our own title: headings one level down, links that lead nowhere here
 * reduced to their text. */
static void S_adapt(hg_arena *a, hg_node *n, const hg_system *s)
{
	for (; n; n = n->next) {
		if (n->type == HG_HEADING && n->level < 6)
			n->level++;
		if (n->type == HG_LINK) {
			const char *to = S_target(a, s, n->text);
			if (to) {
				n->text = to;
			} else {
				n->type = HG_SPAN;
				n->text = n->title = NULL;
			}
		}
		S_adapt(a, n->first, s);
	}
}

void hg_imported_method(hg_arena *a, hg_node *body, const hg_system *s)
{
	const hg_import *im = s->imported;
	const hg_evfile *page = S_file(im, "method.md");
	hg_node *p = hg_add(a, body, HG_PARA), *t, *row, *before;
	size_t i;

	hg_add_textf(a, p, "System %s was measured by %s, not by hashbench; its evidence was "
		"imported by %s", s->name, S_tool(a, im, 0), S_importer(a, s));
	if (im->source) {
		hg_add_text(a, p, " from ");
		hg_add_code(a, p, im->source);
	}
	hg_add_text(a, p, ". Its figures were measured the tool's way, described below by the tool "
		"itself; hashgen computes the figures of its pages from the trials the tool recorded, "
		"with the same definitions as for every other system.");
	hg_add_heading(a, body, 2, "What protected the machine");
	hg_add_text(a, hg_add(a, body, HG_PARA), s->sandbox);
	hg_add_heading(a, body, 2, hg_printf(a, "The method page of %s", im->tool));
	if (!im->method) {
		hg_add_warning(a, hg_add(a, body, HG_PARA), hg_printf(a, "The method page of %s (method.md) "
			"is not part of this system's evidence.", im->tool));
	} else {
		p = hg_add(a, body, HG_PARA);
		hg_add_textf(a, p, "As %s wrote it (", im->tool);
		if (page)
			hg_add_link(a, p, hg_printf(a, "../data/%s/method.md", s->name), "method.md",
				hg_printf(a, "sha256 %s", page->sha256));
		else
			hg_add_code(a, p, "method.md");
		hg_add_text(a, p, "); links to its pages and files that this site does not have are "
			"shown as text.");
		before = body->last;
		hg_prose(a, body, im->method, NULL, NULL);
		S_adapt(a, before->next, s);
	}
	hg_add_heading(a, body, 2, "The imported originals");
	p = hg_add(a, body, HG_PARA);
	hg_add_textf(a, p, "The files of %s this system's evidence keeps unchanged besides the KAT "
		"logs, relative to data/%s/; the original of each timing record is listed on its "
		"algorithm's page.", im->tool, s->name);
	if (!im->nfiles)
		return;
	t = hg_add(a, body, HG_TABLE);
	row = hg_add(a, t, HG_ROW);
	hg_add_cell(a, row, "instance", 0);
	hg_add_cell(a, row, "item", 0);
	hg_add_cell(a, row, "file", 0);
	hg_add_cell(a, row, "sha256", 0);
	for (i = 0; i < im->nfiles; i++)
		hg_evidence_row(a, t, s, &im->files[i], "—", strcmp(im->files[i].file,
			"method.md") == 0 ? "method page" : hg_printf(a, "%s original", im->tool));
}
