/* site_files.c — writing into the site being built: a page rendered as HTML (and Markdown), a
 * file beside a system's pages, a copy of an evidence file; each text file with its .gz twin. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "render.h"
#include "site_files.h"

/* <tmp>/<rel><ext> and its twin written as the renderer makes the bytes. */
static int S_stream(const char *tmp, const char *rel, const char *ext, const void *template,
	const hg_page *p)
{
	char *path = hg_xprintf("%s/%s%s", tmp, rel, ext);
	FILE *f = hg_gztwin_open(path);
	int rc;
	free(path);
	if (!f)
		return -1;
	rc = template ? hg_render_html_to(f, p, template) : hg_render_md_to(f, p);
	if (rc != 0 && !ferror(f))
		hg_error_set("cannot serialise the page %s", p->title);
	if (hg_gztwin_close(f) != 0)
		rc = -1;
	return rc;
}

/* The Markdown twin of a streamed page, written on a thread of its own while the HTML is: the
 * page is only read (its rows made later each in the reader's own arena). */
typedef struct {
	const char *tmp, *rel;
	const hg_page *p;
	char *error;
} S_twin;

static void *S_twin_run(void *arg)
{
	S_twin *t = arg;
	if (S_stream(t->tmp, t->rel, ".md", NULL, t->p) != 0)
		t->error = hg_xstrdup(hg_error_last());
	hg_gztwin_release();
	return NULL;
}

/* Both forms of a large page, at once; the HTML's failure is the one told when both fail. */
static int S_stream_both(const char *tmp, const char *rel, const void *template, const hg_page *p)
{
	S_twin t = { tmp, rel, p, NULL };
	pthread_t thread;
	int threaded = pthread_create(&thread, NULL, S_twin_run, &t) == 0, rc;
	if (!threaded)
		S_twin_run(&t);
	rc = S_stream(tmp, rel, ".html", template, p);
	if (threaded)
		pthread_join(thread, NULL);
	if (rc == 0 && t.error)
		rc = hg_error_set("%s", t.error);
	free(t.error);
	return rc;
}

int hg_site_write_page(const char *tmp, const void *template, const hg_page *p, const char *rel,
	int flags)
{
	char *html = NULL, *md = NULL, *path;
	size_t hlen, mlen;
	int rc;

	if ((flags & HG_PAGE_STREAM) && (flags & HG_PAGE_MD))
		return S_stream_both(tmp, rel, template, p);
	if (flags & HG_PAGE_STREAM)
		return S_stream(tmp, rel, ".html", template, p);
	if (hg_render_html(&html, &hlen, p, template) != 0)
		return -1;
	path = hg_xprintf("%s/%s.html", tmp, rel);
	rc = hg_write_with_gz(path, html, hlen);
	free(path);
	free(html);
	if (rc == 0 && (flags & HG_PAGE_MD)) {
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
