/* test_site_sums.c — every file of three rendered sites, byte for byte: the fixture field, the
 * imported fixture and the bundled baselines' evidence of a real quick campaign, each held against
 * a checked-in list of SHA-256 sums (tests/fixtures/site-sums/); HBT_UPDATE_GOLDEN=1 rewrites the
 * lists when a change to the pages is meant. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/evp.h>

#include "hashgen.h"
#include "support.h"

#define SUMS HBT_FIXTURES "/site-sums"
#define TEMPLATES HBT_SOURCE_DIR "/templates"

/* One "sum  path\n" line for every regular file under dir/rel, in readdir order (sorted later). */
static void S_sum_tree(FILE *out, const char *root, const char *rel)
{
	char *dir = rel[0] ? hb_path_join(root, rel) : strdup(root);
	DIR *d = opendir(dir);
	struct dirent *de;

	cr_assert_not_null(d, "cannot open %s", dir);
	while ((de = readdir(d)) != NULL) {
		char *sub, *path;
		struct stat st;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		sub = rel[0] ? hb_path_join(rel, de->d_name) : strdup(de->d_name);
		path = hb_path_join(root, sub);
		cr_assert_eq(lstat(path, &st), 0, "%s", path);
		if (S_ISDIR(st.st_mode)) {
			S_sum_tree(out, root, sub);
		} else {
			char *data;
			size_t len, i;
			unsigned char md[EVP_MAX_MD_SIZE];
			unsigned int mdlen = 0;
			cr_assert_eq(hg_read_file(&data, &len, path), 0, "%s", hg_error_last());
			cr_assert_eq(EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL), 1);
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
}

static int S_line_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	return strcmp(strchr(x, ' '), strchr(y, ' '));
}

/* The sorted sum list of a site, as one string. */
static char *S_sums(const char *site)
{
	char *text = NULL, *sorted, *p, **lines = NULL;
	size_t len = 0, n = 0, cap = 0, i;
	FILE *f = open_memstream(&text, &len);

	S_sum_tree(f, site, "");
	fclose(f);
	for (p = text; *p; p = strchr(p, '\n') + 1) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			lines = realloc(lines, cap * sizeof(*lines));
		}
		lines[n++] = p;
	}
	for (p = text; *p; p++)
		if (*p == '\n')
			*p = 0;
	qsort(lines, n, sizeof(*lines), S_line_cmp);
	sorted = calloc(1, len + 1);
	for (i = 0; i < n; i++) {
		strcat(sorted, lines[i]);
		strcat(sorted, "\n");
	}
	free(lines);
	free(text);
	return sorted;
}

/* The first line of want that got lacks, for a message that names the file. */
static const char *S_first_missing(const char *want, const char *got, char *buf, size_t size)
{
	const char *p = want;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = (size_t)(e - p);
		char line[512];
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = 0;
		if (!strstr(got, line)) {
			snprintf(buf, size, "%s", line + 66);
			return buf;
		}
		p = e + 1;
	}
	return "(none)";
}

static void S_check_site(const char *name, const char *data)
{
	char *work = hbt_tmpdir(name), *site = hb_path_join(work, "site");
	char *list = hb_path_join(SUMS, name), *got, *want = NULL, buf[512];
	char *listfile = NULL;
	size_t len;
	hg_site_opts o;
	hg_site_stats st;
	FILE *w = fopen("/dev/null", "w");

	if (asprintf(&listfile, "%s.sha256", list) < 0)
		cr_assert_fail("out of memory");
	memset(&o, 0, sizeof(o));
	o.data_dir = data;
	o.templates_dir = TEMPLATES;
	o.out_dir = site;
	o.generator = "hashgen (test)";
	o.warnings = w;
	cr_assert_eq(hg_site_build(&st, &o), 0, "%s: %s", name, hg_error_last());
	fclose(w);
	got = S_sums(site);
	if (getenv("HBT_UPDATE_GOLDEN")) {
		hg_mkdirs(SUMS);
		hbt_write(listfile, got, strlen(got));
	} else {
		cr_assert_eq(hg_read_file(&want, &len, listfile), 0, "%s", hg_error_last());
		char buf2[512];
		cr_expect_str_eq(got, want, "the %s site is no longer the same bytes: first changed or "
			"missing file %s, first changed or new file %s (HBT_UPDATE_GOLDEN=1 rewrites "
			"tests/fixtures/site-sums/ when the change is meant)", name,
			S_first_missing(want, got, buf, sizeof(buf)),
			S_first_missing(got, want, buf2, sizeof(buf2)));
	}
	free(want);
	free(got);
	free(listfile);
	free(list);
	free(site);
	free(work);
}

Test(site_sums, fixture_field)
{
	S_check_site("fixture", HBT_FIXTURES "/data");
}

Test(site_sums, imported_evidence)
{
	S_check_site("imported", HBT_FIXTURES "/imported");
}

Test(site_sums, bundled_baselines)
{
	S_check_site("baselines", HBT_FIXTURES "/baselines");
}
