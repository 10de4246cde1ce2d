/* cache.c — the rebuild cache (see cache.h): a sorted text file, looked up by binary search. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "hashgen.h"

#define MAGIC "hashgen-cache 1"

static int S_cmp_file(const void *a, const void *b)
{
	return strcmp(((const hg_cfile *)a)->path, ((const hg_cfile *)b)->path);
}

static int S_cmp_page(const void *a, const void *b)
{
	const hg_cpage *x = a, *y = b;
	int c = strcmp(x->system, y->system);
	return c ? c : strcmp(x->id, y->id);
}

void hg_cache_load(hg_cache *c, const char *path)
{
	char *text = NULL, *line, *save = NULL;
	size_t len, fcap = 0, pcap = 0;

	memset(c, 0, sizeof(*c));
	if (hg_read_file(&text, &len, path) != 0)
		return;
	line = strtok_r(text, "\n", &save);
	if (!line || strcmp(line, MAGIC) != 0) {
		free(text);
		return;
	}
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		char a[4096], b[4096], sha[65];
		unsigned long long ino, size;
		long long mtime;
		double headline;
		if (line[0] == 'F' && sscanf(line, "F %4095s %llu %llu %lld %64s", a, &ino, &size, &mtime,
				sha) == 5) {
			if (c->nfiles == fcap) {
				fcap = fcap ? 2 * fcap : 1024;
				c->files = realloc(c->files, fcap * sizeof(hg_cfile));
			}
			c->files[c->nfiles].path = hg_xstrdup(a);
			c->files[c->nfiles].ino = ino;
			c->files[c->nfiles].size = size;
			c->files[c->nfiles].mtime_ns = mtime;
			memcpy(c->files[c->nfiles].sha256, sha, 65);
			c->nfiles++;
		} else if (line[0] == 'P' && sscanf(line, "P %4095s %4095s %64s %lg", a, b, sha,
				&headline) == 4) {
			if (c->npages == pcap) {
				pcap = pcap ? 2 * pcap : 256;
				c->pages = realloc(c->pages, pcap * sizeof(hg_cpage));
			}
			c->pages[c->npages].system = hg_xstrdup(a);
			c->pages[c->npages].id = hg_xstrdup(b);
			memcpy(c->pages[c->npages].key, sha, 65);
			c->pages[c->npages].headline = headline;
			c->npages++;
		}
	}
	free(text);
	/* written sorted; sort anyway so that a hand-edited file cannot break the lookups */
	if (c->nfiles)
		qsort(c->files, c->nfiles, sizeof(hg_cfile), S_cmp_file);
	if (c->npages)
		qsort(c->pages, c->npages, sizeof(hg_cpage), S_cmp_page);
}

void hg_cache_clear(hg_cache *c)
{
	size_t i;
	for (i = 0; i < c->nfiles; i++)
		free(c->files[i].path);
	for (i = 0; i < c->npages; i++) {
		free(c->pages[i].system);
		free(c->pages[i].id);
	}
	free(c->files);
	free(c->pages);
	memset(c, 0, sizeof(*c));
}

const hg_cfile *hg_cache_file(const hg_cache *c, const char *path)
{
	hg_cfile key;
	key.path = (char *)path;
	return c->nfiles ? bsearch(&key, c->files, c->nfiles, sizeof(hg_cfile), S_cmp_file) : NULL;
}

const hg_cpage *hg_cache_page(const hg_cache *c, const char *system, const char *id)
{
	hg_cpage key;
	key.system = (char *)system;
	key.id = (char *)id;
	return c->npages ? bsearch(&key, c->pages, c->npages, sizeof(hg_cpage), S_cmp_page) : NULL;
}

int hg_cache_save(const char *path, hg_cfile *files, size_t nfiles, hg_cpage *pages,
	size_t npages)
{
	char *tmp = hg_xprintf("%s.tmp-%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	size_t i;
	int rc = 0;

	if (!f) {
		free(tmp);
		return hg_error_set("%s: cannot write the rebuild cache", path);
	}
	if (nfiles)
		qsort(files, nfiles, sizeof(hg_cfile), S_cmp_file);
	if (npages)
		qsort(pages, npages, sizeof(hg_cpage), S_cmp_page);
	fprintf(f, "%s\n", MAGIC);
	for (i = 0; i < npages; i++)
		fprintf(f, "P %s %s %s %.17g\n", pages[i].system, pages[i].id, pages[i].key,
			pages[i].headline);
	for (i = 0; i < nfiles; i++)
		fprintf(f, "F %s %llu %llu %lld %s\n", files[i].path, files[i].ino, files[i].size,
			files[i].mtime_ns, files[i].sha256);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		unlink(tmp);
		rc = hg_error_set("%s: cannot write the rebuild cache", path);
	}
	free(tmp);
	return rc;
}
