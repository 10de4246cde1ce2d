/* sitewide.h — writing the site (site.c) and the outputs that span its pages (sitewide.c): each
 * system's comparison page, the downloads of every figure, the catalog beside the evidence. */
#ifndef HG_SITEWIDE_H
#define HG_SITEWIDE_H

#include "pages.h"

/* A page as <tmp>/<rel>.html (and .md when with_md), each with its .gz twin. */
int hg_site_write_page(const char *tmp, const void *template, const hg_page *p, const char *rel,
	int with_md);
/* <tmp>/<system>/<name> and its .gz twin. */
int hg_site_write_beside(const char *tmp, const char *system, const char *name, const char *data,
	size_t len);
/* A copy of an evidence file: a hard link when the file system allows, else the bytes. */
int hg_site_copy(const char *from, const char *to);

/* The comparison page of system k of d from its rows, and the bar charts of its groups. */
int hg_site_compare(const char *tmp, const void *template, const hg_data *d, size_t k,
	const hg_fig *const *rows, size_t n, const hg_yardsticks *y, const hg_texts *tx);
/* results.csv and results.json: every figure of every system. */
int hg_site_results(const char *tmp, const hg_data *d, const hg_fig *const *rows, size_t n);
/* The originals of an imported system that no page copies (method.md, imported/…) under
 * <tmp>/data/<system>/, and the folder of its records' originals; nothing for other systems
 * (imported_site.c). */
int hg_imported_copy(const char *tmp, const hg_system *s);
/* The catalog under <tmp>/data/algorithms, so that the site's data/ renders it again. */
int hg_site_catalog(const char *tmp, const hg_data *d);

#endif
