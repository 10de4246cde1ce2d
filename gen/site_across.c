/* site_across.c — the page of an algorithm across every system written into the site:
 * algorithms/<id>.html and .md, and its chart algorithms/<id>.svg. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "render.h"
#include "site_files.h"
#include "sitewide.h"

int hg_site_across(const char *tmp, const void *template, const hg_data *d, const hg_texts *tx,
	const char *id, const hg_sysfigs *all, size_t nall)
{
	int chart = 0, rc;
	size_t k, len;
	char *rel, *text, *name;
	hg_page *p;

	for (k = 0; k < nall && !chart; k++)
		chart = hg_figs_have_figures(all[k].figs, all[k].nfigs);
	p = hg_page_across(d, id, all, nall, tx, chart);
	rel = hg_xprintf("%s/%s", HG_ACROSS_DIR, id);
	rc = hg_site_write_page(tmp, template, p, rel, HG_PAGE_MD);
	free(rel);
	hg_page_free(p);
	if (rc != 0 || !chart)
		return rc;
	if ((rc = hg_chart_across(&text, &len, d, id, all, nall)) != 0)
		return rc;
	name = hg_xprintf("%s.svg", id);
	rc = hg_site_write_beside(tmp, HG_ACROSS_DIR, name, text, len);
	free(name);
	free(text);
	return rc;
}
