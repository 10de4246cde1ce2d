/* site_files.c — writing into the site being built: a page rendered as HTML (and Markdown), a
 * file beside a system's pages, a copy of an evidence file; each text file with its .gz twin. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "render.h"
#include "site_files.h"

int hg_site_write_page(const char *tmp, const void *template, const hg_page *p, const char *rel,
	int with_md)
{
	char *html = NULL, *md = NULL, *path;
	size_t hlen, mlen;
	int rc;

	if (hg_render_html(&html, &hlen, p, template) != 0)
		return -1;
	path = hg_xprintf("%s/%s.html", tmp, rel);
	rc = hg_write_with_gz(path, html, hlen);
	free(path);
	free(html);
	if (rc == 0 && with_md) {
		if (hg_render_md(&md, &mlen, p) != 0)
			return hg_error_set("out of memory rendering %s.md", rel);
		path = hg_xprintf("%s/%s.md", tmp, rel);
		rc = hg_write_with_gz(path, md, mlen);
		free(path);
		free(md);
	}
	return rc;
}

/* A copy of an evidence file: a hard link when the file system allows, else the bytes. */
int hg_site_copy(const char *from, const char *to)
{
	char *data;
	size_t len;
	int rc;
	if (link(from, to) == 0)
		return 0;
	if (hg_read_file(&data, &len, from) != 0)
		return -1;
	rc = hg_write_file(to, data, len);
	free(data);
	return rc;
}

int hg_site_write_beside(const char *tmp, const char *system, const char *name, const char *data,
	size_t len)
{
	char *path = hg_xprintf("%s/%s/%s", tmp, system, name);
	int rc = hg_write_with_gz(path, data, len);
	free(path);
	return rc;
}
