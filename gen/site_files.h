/* site_files.h — writing into the site being built (site_files.c): a page as HTML and Markdown,
 * a file beside the pages of a system, a copy of an evidence file. The floor the site's steps
 * stand on. */
#ifndef HG_SITE_FILES_H
#define HG_SITE_FILES_H

#include <stddef.h>

#include "model.h"

/* A page as <tmp>/<rel>.html (and .md with HG_PAGE_MD), each with its .gz twin; with
 * HG_PAGE_STREAM (a page of many megabytes: the comparison page, the eBASH-style table, the
 * indexes) serialised straight into its files instead of into memory first: the same bytes. */
#define HG_PAGE_MD 1
#define HG_PAGE_STREAM 2
int hg_site_write_page(const char *tmp, const void *template, const hg_page *p, const char *rel,
	int with_md);
/* <tmp>/<system>/<name> and its .gz twin. */
int hg_site_write_beside(const char *tmp, const char *system, const char *name, const char *data,
	size_t len);
/* A copy of an evidence file: a hard link when the file system allows, else the bytes. */
int hg_site_copy(const char *from, const char *to);

#endif
