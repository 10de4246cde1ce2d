/* imported.c — reading evidence another tool measured and `hashbench import` converted: who
 * measured it (system.json's "measured_by"), the tool's own method page, the originals kept beside
 * the converted files, and the "imported" objects that link each converted file to its original. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/xmlstring.h>

#include "evidence.h"

size_t hg_evidence_kinds(const hg_system *s, const char *out[3])
{
	out[0] = "kat";
	out[1] = "records";
	out[2] = HG_ORIGINALS;
	return s->imported ? 3 : 2;
}

/* An optional string member of an "imported" or "measured_by" object (absent or null: NULL). */
static int S_member(char **out, json_t *obj, const char *key, int required, const char *file,
	const char *where)
{
	json_t *v = json_object_get(obj, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return required ? hg_error_set("%s: %s.%s: missing", file, where, key) : 0;
	if (!json_is_string(v) || !*json_string_value(v))
		return hg_error_set("%s: %s.%s: expected a non-empty string", file, where, key);
	*out = hg_xstrdup(json_string_value(v));
	return 0;
}

/* Names that become link targets: the characters of evidence names, and '/' between them. */
static int S_name_ok(const char *rel)
{
	return hg_sums_path_ok(rel) && strspn(rel, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		"0123456789._-/") == strlen(rel);
}

/* Is rel one of the system's originals: method.md or under imported/, the records' aside? */
static int S_system_original(const char *rel)
{
	return strcmp(rel, "method.md") == 0 || (strncmp(rel, "imported/", 9) == 0 &&
		strncmp(rel, HG_ORIGINALS "/", sizeof(HG_ORIGINALS)) != 0);
}

static int S_has_file(const hg_import *im, const char *rel)
{
	size_t i;
	for (i = 0; i < im->nfiles; i++)
		if (strcmp(im->files[i].file, rel) == 0)
			return 1;
	return 0;
}

/* Read and check one original; *text (may be NULL) gets its bytes. A missing file is not an
 * error: it shows as missing where SHA256SUMS lists it. */
static int S_original(hg_import *im, const hg_system *s, const char *rel, char **text)
{
	char *path = hg_xprintf("%s/%s", s->dir, rel), *data = NULL;
	const hg_sum *own;
	hg_evfile *f;
	struct stat st;
	size_t len, nown;
	int rc = 0;

	if (text)
		*text = NULL;
	if (lstat(path, &st) != 0) {
		rc = errno == ENOENT || errno == ENOTDIR ? 0 : hg_error_set("%s: %s", path, strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode))
		goto out;
	if (!S_ISREG(st.st_mode)) {
		rc = hg_error_set("%s: not a regular file (a symbolic link?): refused", path);
		goto out;
	}
	if (!S_name_ok(rel)) {
		rc = hg_error_set("%s: a name with characters other than letters, digits, '.', '_' and "
			"'-': refused", path);
		goto out;
	}
	if (hg_read_file(&data, &len, path) != 0) {
		rc = -1;
		goto out;
	}
	im->files = realloc(im->files, (im->nfiles + 1) * sizeof(hg_evfile));
	f = &im->files[im->nfiles++];
	memset(f, 0, sizeof(*f));
	f->file = hg_xstrdup(rel);
	f->ino = (unsigned long long)st.st_ino;
	f->size = (unsigned long long)st.st_size;
	hg_sha256_hex(f->sha256, data, len);
	/* method.md and the files of imported/ outside records/: the system's own lines */
	own = hg_sums_system(s, &nown);
	hg_evfile_check(f, own, nown);
	if (text) {
		*text = data;
		data = NULL;
	}
out:
	free(data);
	free(path);
	return rc;
}

/* The tool's method page is Markdown that a page will show: UTF-8 text, no control characters. */
static int S_text_ok(const char *text, const char *path)
{
	const unsigned char *p;
	int line = 1;
	for (p = (const unsigned char *)text; *p; p++) {
		if (*p == '\n')
			line++;
		else if (*p < 0x20 && *p != '\t' && *p != '\r')
			return hg_error_set("%s:%d: a control character: not a Markdown page", path, line);
	}
	if (!xmlCheckUTF8((const xmlChar *)text))
		return hg_error_set("%s: not UTF-8 text", path);
	return 0;
}

static int S_cmp_evfile(const void *a, const void *b)
{
	return strcmp(((const hg_evfile *)a)->file, ((const hg_evfile *)b)->file);
}

/* method.md, the files of imported/ (the records' originals are read with their pages) and what
 * SHA256SUMS lists of them. */
static int S_originals(hg_import *im, const hg_system *s)
{
	char *dir = hg_xprintf("%s/imported", s->dir), *path;
	DIR *d;
	struct dirent *de;
	const hg_sum *own;
	size_t i, nown;
	int rc;

	if (S_original(im, s, "method.md", &im->method) != 0) {
		free(dir);
		return -1;
	}
	path = hg_xprintf("%s/method.md", s->dir);
	rc = im->method ? S_text_ok(im->method, path) : 0;
	free(path);
	d = rc == 0 ? opendir(dir) : NULL;
	while (d && rc == 0 && (de = readdir(d)) != NULL) {
		char *rel;
		if (de->d_name[0] == '.' || strcmp(de->d_name, "records") == 0)
			continue;
		rel = hg_xprintf("imported/%s", de->d_name);
		rc = S_original(im, s, rel, NULL);
		free(rel);
	}
	if (d)
		closedir(d);
	free(dir);
	/* the originals lie outside the algorithms' folders: among the system's own lines */
	own = hg_sums_system(s, &nown);
	for (i = 0; i < nown && rc == 0; i++) {
		const char *rel = own[i].path;
		if (!S_system_original(rel) || S_has_file(im, rel))
			continue;
		if ((rc = S_original(im, s, rel, NULL)) == 0 && !S_has_file(im, rel)) {
			hg_evfile *f;
			im->files = realloc(im->files, (im->nfiles + 1) * sizeof(hg_evfile));
			f = &im->files[im->nfiles++];
			memset(f, 0, sizeof(*f));
			f->file = hg_xstrdup(rel);
			memcpy(f->listed, own[i].sha256, 65);
			f->state = HG_SUM_MISSING;
		}
	}
	if (im->nfiles > 1)
		qsort(im->files, im->nfiles, sizeof(hg_evfile), S_cmp_evfile);
	return rc;
}

int hg_import_load(hg_system *s, json_t *mb, const char *file)
{
	hg_import *im;

	if (!mb || json_is_null(mb))
		return 0;
	if (!json_is_object(mb) && !json_is_string(mb))
		return hg_error_set("%s: measured_by: expected an object", file);
	im = calloc(1, sizeof(*im));
	if (!im)
		return hg_error_set("out of memory");
	s->imported = im;
	if (json_is_string(mb)) {
		/* the short form: the tool's name only */
		if (!*json_string_value(mb))
			return hg_error_set("%s: measured_by: expected a non-empty string", file);
		im->tool = hg_xstrdup(json_string_value(mb));
	} else if (S_member(&im->tool, mb, "tool", 1, file, "measured_by") ||
		S_member(&im->version, mb, "version", 0, file, "measured_by") ||
		S_member(&im->commit, mb, "commit", 0, file, "measured_by") ||
		S_member(&im->imported_by, mb, "imported_by", 0, file, "measured_by") ||
		S_member(&im->source, mb, "source", 0, file, "measured_by")) {
		return -1;
	}
	/* hashbench's sandbox had no part in it: the method page says who measured instead */
	free(s->sandbox);
	s->sandbox = hg_xprintf("Not recorded by hashbench: this system was measured by %s, whose "
		"method page follows; hashbench's sandbox had no part in it.", im->tool);
	s->sandbox_off = -1;
	return S_originals(im, s);
}

void hg_import_free(hg_import *im)
{
	size_t i;
	if (!im)
		return;
	{
		char *strings[] = { im->tool, im->version, im->commit, im->imported_by, im->source,
			im->method };
		for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
			free(strings[i]);
	}
	for (i = 0; i < im->nfiles; i++)
		free(im->files[i].file);
	free(im->files);
	free(im);
}

int hg_import_record(hg_record *r, json_t *rec, const char *file)
{
	json_t *im = json_object_get(rec, "imported");
	char *sha = NULL, *tool = NULL;
	int rc = -1;

	if (!im || json_is_null(im))
		return 0;
	if (!json_is_object(im))
		return hg_error_set("%s: imported: expected an object", file);
	if (S_member(&tool, im, "tool", 0, file, "imported") ||
		S_member(&r->original, im, "original", 1, file, "imported") ||
		S_member(&sha, im, "sha256", 1, file, "imported"))
		goto out;
	if (strncmp(r->original, HG_ORIGINALS "/", sizeof(HG_ORIGINALS)) != 0 ||
		!hg_sums_path_ok(r->original)) {
		hg_error_set("%s: imported.original: \"%s\" is not a path under %s/: refused", file,
			r->original, HG_ORIGINALS);
		goto out;
	}
	if (strlen(sha) != 64 || strspn(sha, "0123456789abcdef") != 64) {
		hg_error_set("%s: imported.sha256: expected 64 lowercase hexadecimal digits", file);
		goto out;
	}
	memcpy(r->original_sha256, sha, 65);
	rc = 0;
out:
	free(sha);
	free(tool);
	return rc;
}

int hg_import_kat(hg_kat *k, json_t *kat, const char *file)
{
	json_t *im = json_object_get(kat, "imported");
	if (!im || json_is_null(im))
		return 0;
	if (!json_is_object(im))
		return hg_error_set("%s: imported: expected an object", file);
	return S_member(&k->import_note, im, "note", 0, file, "imported");
}
