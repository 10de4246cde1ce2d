/* golden.c — the site tests' golden files: the pages and sites they hold, and their rewriting. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/evp.h>

#include "genutil.h"
#include "golden.h"
#include "hashgen.h"
#include "hbutil.h"

#define TEMPLATES HBT_SOURCE_DIR "/templates"

const char *const hbt_golden_pages[] = { "index.html", "x86_1/index.html", "x86_1/method.html",
	"x86_1/hash-15.html", "x86_1/hash-15.md", "arm_1/hash-15.html", "arm_1/hash-15.md",
	"x86_1/hash-21.md", "x86_1/evil.html", "x86_1/evil.md", "x86_1/compare.html",
	"x86_1/compare.md", "arm_1/compare.md", "algorithms/hash-15.html", "algorithms/hash-15.md",
	NULL };

const char *const hbt_golden_sites[][2] = {
	{ "fixture", HBT_FIXTURES "/data" },
	{ "imported", HBT_FIXTURES "/imported" },
	{ "baselines", HBT_FIXTURES "/baselines" },
	{ NULL, NULL },
};

int hbt_site_build(const char *data, const char *out, int strict, char **err)
{
	hg_site_opts o;
	hg_site_stats st;
	char *warn_text = NULL;
	size_t warn_len = 0;
	FILE *w = open_memstream(&warn_text, &warn_len);
	int rc;

	memset(&o, 0, sizeof(o));
	o.data_dir = data;
	o.templates_dir = TEMPLATES;
	o.out_dir = out;
	o.strict = strict;
	o.generator = "hashgen (test)";
	o.warnings = w;
	rc = hg_site_build(&st, &o);
	fclose(w);
	if (err)
		*err = rc ? hg_xstrdup(hg_error_last()) : warn_text;
	if (!err || rc)
		free(warn_text);
	return rc;
}

/* One "sum  path\n" line for every regular file under root/rel, in readdir order. */
static int S_sum_tree(FILE *out, const char *root, const char *rel)
{
	char *dir = rel[0] ? hb_path_join(root, rel) : hb_strdup(root);
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "golden: cannot open %s\n", dir);
		free(dir);
		return -1;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		char *sub, *path, *data;
		struct stat st;
		size_t len, i;
		unsigned char md[EVP_MAX_MD_SIZE];
		unsigned int mdlen = 0;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		sub = rel[0] ? hb_path_join(rel, de->d_name) : hb_strdup(de->d_name);
		path = hb_path_join(root, sub);
		if (lstat(path, &st) != 0) {
			fprintf(stderr, "golden: %s: cannot stat\n", path);
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			rc = S_sum_tree(out, root, sub);
		} else if (hg_read_file(&data, &len, path) != 0 ||
			   EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) != 1) {
			fprintf(stderr, "golden: %s: cannot read\n", path);
			rc = -1;
		} else {
			for (i = 0; i < mdlen; i++)
				fprintf(out, "%02x", md[i]);
			fprintf(out, "  %s\n", sub);
			free(data);
		}
		free(sub);
		free(path);
	}
	closedir(d);
	free(dir);
	return rc;
}

static int S_line_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	return strcmp(strchr(x, ' '), strchr(y, ' '));
}

char *hbt_site_sums(const char *site)
{
	char *text = NULL, *sorted, *p, **lines = NULL;
	size_t len = 0, n = 0, cap = 0, i, at = 0;
	FILE *f = open_memstream(&text, &len);
	int rc = S_sum_tree(f, site, "");

	fclose(f);
	if (rc != 0) {
		free(text);
		return NULL;
	}
	for (p = text; *p; p = strchr(p, '\n') + 1) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			lines = realloc(lines, cap * sizeof(*lines));
			if (!lines)
				abort();
		}
		lines[n++] = p;
	}
	for (p = text; *p; p++)
		if (*p == '\n')
			*p = 0;
	qsort(lines, n, sizeof(*lines), S_line_cmp);
	sorted = malloc(len + 1);
	if (!sorted)
		abort();
	for (i = 0; i < n; i++) {
		size_t l = strlen(lines[i]);
		memcpy(sorted + at, lines[i], l);
		sorted[at + l] = '\n';
		at += l + 1;
	}
	sorted[at] = 0;
	free(lines);
	free(text);
	return sorted;
}

/* Write data to path, making its folder; 0 or -1 with the reason on standard error. */
static int S_put(const char *path, const char *data)
{
	char *dir = hb_strdup(path);
	int rc;

	*strrchr(dir, '/') = 0;
	rc = hg_mkdirs(dir) == 0 && hg_write_file(path, data, strlen(data)) == 0 ? 0 : -1;
	if (rc)
		fprintf(stderr, "golden: %s: %s\n", path, hg_error_last());
	free(dir);
	return rc;
}

/* Build data into work/name; its pages of list (or, with no list, its sum list) into place. */
static int S_rewrite_site(const char *work, const char *name, const char *data,
	const char *const *pages)
{
	char *site = hb_path_join(work, name), *err = NULL, *text, *to;
	size_t i, len;
	int rc = hbt_site_build(data, site, 0, &err);

	if (rc != 0)
		fprintf(stderr, "golden: site %s from %s: %s\n", name, data, err);
	for (i = 0; rc == 0 && pages && pages[i]; i++) {
		char *from = hb_path_join(site, pages[i]);
		to = hb_path_join(HBT_GOLDEN_DIR, pages[i]);
		rc = hg_read_file(&text, &len, from) == 0 ? S_put(to, text) : -1;
		if (rc == 0)
			free(text);
		else
			fprintf(stderr, "golden: %s: %s\n", from, hg_error_last());
		free(from);
		free(to);
	}
	if (rc == 0 && !pages) {
		text = hbt_site_sums(site);
		to = hb_sprintf("%s/%s.sha256", HBT_SUMS_DIR, name);
		rc = text ? S_put(to, text) : -1;
		free(text);
		free(to);
	}
	free(err);
	free(site);
	return rc;
}

int hbt_golden_rewrite(const char *work)
{
	int rc = S_rewrite_site(work, "pages", hbt_golden_sites[0][1], hbt_golden_pages);
	size_t i;

	for (i = 0; rc == 0 && hbt_golden_sites[i][0]; i++)
		rc = S_rewrite_site(work, hbt_golden_sites[i][0], hbt_golden_sites[i][1], NULL);
	return rc;
}
