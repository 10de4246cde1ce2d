/* page_parts.c — the parts every page builder shares: tables, warnings, the instance cell, the
 * environment rows of a system, a system page's breadcrumb and one row of an evidence index. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "pages.h"

hg_node *hg_index_breadcrumb(hg_arena *a)
{
	hg_node *bc = hg_node_new(a, HG_PARA);
	hg_add_link(a, bc, "../index.html", "Performance measurements", NULL);
	return bc;
}

hg_node *hg_system_breadcrumb(hg_arena *a, const hg_system *s)
{
	hg_node *bc = hg_index_breadcrumb(a);
	hg_add_text(a, bc, " › ");
	hg_add_link(a, bc, "index.html", s->name, NULL);
	return bc;
}

hg_node *hg_add_across_link(hg_arena *a, hg_node *parent, const char *root, const char *id,
	const char *text)
{
	const char *title = hg_printf(a, "%s on every system", id);
	return hg_add_link(a, parent, hg_printf(a, "%s" HG_ACROSS_DIR "/%s.html", root, id), text,
		strcmp(text, title) == 0 ? NULL : title);
}

const char *hg_arch_name(const char *arch)
{
	if (!arch)
		return "an unknown architecture";
	if (strcmp(arch, "x86_64") == 0)
		return "x86-64";
	if (strcmp(arch, "aarch64") == 0)
		return "AArch64";
	return arch;
}

const char *hg_campaign_dates(hg_arena *a, const hg_system *s)
{
	char start[HG_FMT], end[HG_FMT];
	if (!s->start || !s->end)
		return "not recorded";
	hg_fmt_utc(start, sizeof(start), s->start);
	hg_fmt_utc(end, sizeof(end), s->end);
	if (strlen(start) == 19 && strlen(end) == 19) {
		start[10] = end[10] = ' ';
		start[16] = end[16] = 0;
		return hg_printf(a, "%s – %s UTC", start, strncmp(start, end, 10) == 0 ? end + 11 :
			end);
	}
	return hg_printf(a, "%s – %s", start, end);
}

const char *hg_or_na(const char *s)
{
	return s ? s : "not available";
}

hg_node *hg_add_table(hg_arena *a, hg_node *parent, const char *const *head,
	const int *numeric)
{
	hg_node *t = hg_add(a, parent, HG_TABLE), *row = hg_add(a, t, HG_ROW);
	size_t i;
	for (i = 0; head[i]; i++)
		hg_add_cell(a, row, head[i], numeric ? numeric[i] : 0);
	return t;
}

void hg_add_row2(hg_arena *a, hg_node *t, const char *k, const char *v)
{
	hg_node *row = hg_add(a, t, HG_ROW);
	hg_add_cell(a, row, k, 0);
	hg_add_cell(a, row, v, 0);
}

void hg_env_rows(hg_arena *a, hg_node *parent, const hg_system *s)
{
	static const char *head[] = { "item", "value", NULL };
	hg_node *t = hg_add_table(a, parent, head, NULL);
	char buf[512], start[HG_FMT], end[HG_FMT];

	hg_add_row2(a, t, "processor", hg_printf(a, "%s (CPU %d, one core)", hg_or_na(s->processor),
		s->cpu));
	if (s->machine)
		hg_add_row2(a, t, "machine", s->machine);
	hg_fmt_clock(buf, sizeof(buf), s->governor, s->min_khz, s->max_khz, s->boost_name,
		s->boost_state, s->smt);
	hg_add_row2(a, t, "clock", buf);
	if (s->counter)
		hg_add_row2(a, t, "counter", hg_counter_row(a, s));
	hg_add_row2(a, t, "memory", s->memory_mib >= 0 ? hg_printf(a, "%lld MiB", s->memory_mib) :
		"not available");
	hg_add_row2(a, t, "OS / kernel", hg_printf(a, "%s / %s", hg_or_na(s->os),
		hg_or_na(s->kernel)));
	hg_add_row2(a, t, "compiler / build tool", hg_printf(a, "%s / %s", hg_or_na(s->compiler),
		hg_or_na(s->build_tool)));
	hg_fmt_utc(start, sizeof(start), s->start);
	hg_fmt_utc(end, sizeof(end), s->end);
	hg_add_row2(a, t, "campaign start / end (UTC)", hg_printf(a, "%s / %s", start, end));
}

void hg_add_instance_cell(hg_arena *a, hg_node *row, const char *instance, const char *impl)
{
	hg_node *c = hg_add(a, row, HG_CELL);
	c->cls = "name"; /* one line: "sha256 (ref)" */
	hg_add_code(a, c, instance);
	if (strcmp(impl, "reference") != 0)
		hg_add_textf(a, c, " (%s)", impl);
}

const char *hg_result_class(const char *result)
{
	return strcmp(result, "PASS") == 0 ? "pass" : strcmp(result, "SKIPPED") == 0 ? NULL :
		strcmp(result, "UNVERIFIED") == 0 ? "unverified" : "fail";
}

hg_node *hg_add_warning(hg_arena *a, hg_node *parent, const char *text)
{
	hg_node *w = hg_add(a, parent, HG_SPAN);
	w->cls = "warning";
	hg_add_text(a, w, text);
	return w;
}

/* One row of an evidence index: what the file is, a link to its copy on the site, its SHA-256
 * and how that compares with SHA256SUMS; returns the SHA-256 cell. */
hg_node *hg_evidence_row(hg_arena *a, hg_node *t, const hg_system *s, const hg_evfile *f,
	const char *inst, const char *item)
{
	hg_node *row = hg_add(a, t, HG_ROW), *c;
	char b[HG_FMT];
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
		hg_add_warning(a, c, hg_printf(a, "does not match SHA256SUMS (%s)",
			hg_fmt_sha_short(b, sizeof(b), f->listed)));
		break;
	case HG_SUM_UNLISTED:
		hg_add_warning(a, c, "not listed in SHA256SUMS");
		break;
	case HG_SUM_MISSING:
		hg_add_warning(a, c, "listed in SHA256SUMS but missing");
		break;
	default:
		break;
	}
	return c;
}


/* "(JSON · CSV)": the field index, from a page one folder down. */
void hg_add_results_index(hg_arena *a, hg_node *para)
{
	hg_add_link(a, para, "../results-index.json", "JSON", NULL);
	hg_add_text(a, para, " · ");
	hg_add_link(a, para, "../results-index.csv", "CSV", NULL);
}

void hg_add_downloads(hg_arena *a, hg_node *body, const hg_system *s, const char *what)
{
	hg_node *para = hg_add(a, body, HG_PARA), *list, *item;
	size_t p, np = hg_parts_count(s);
	char name[32];

	para->title = "downloads"; /* the site index links here */
	hg_add_textf(a, para, "Download every figure of this system, with %s, from the %s below: "
		"the downloads come in parts of %d algorithms per system, with an index giving each "
		"part's SHA-256 (", what, hg_plural(np, "part", "parts"), HG_PART_ALGORITHMS);
	hg_add_results_index(a, para);
	hg_add_text(a, para, ").");
	list = hg_add(a, body, HG_LIST);
	for (p = 1; p <= np; p++) {
		const char *first, *last;
		size_t nalg = hg_part_range(s, p, &first, &last);
		item = hg_add(a, list, HG_ITEM);
		if (!nalg)
			hg_add_textf(a, item, "part %zu (no algorithms): ", p);
		else if (nalg == 1)
			hg_add_textf(a, item, "part %zu, %s (1 algorithm): ", p, first);
		else
			hg_add_textf(a, item, "part %zu, %s to %s (%zu algorithms): ", p, first, last, nalg);
		hg_part_name(name, sizeof(name), p);
		hg_add_link(a, item, hg_printf(a, "%s.csv", name), "CSV", NULL);
		hg_add_text(a, item, " · ");
		hg_add_link(a, item, hg_printf(a, "%s.json", name), "JSON", NULL);
	}
}
