/* import.c — `hashbench import ngcc-harness`: the evidence folder of the earlier harness turned
 * into data/<system>/ of our contract (docs/import.md), every
 * original kept beside what was made from it and the whole renamed into place at the end. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "import.h"

static void S_orig_clear(hb_imp_orig *o)
{
	free(o->src);
	free(o->id);
	hb_buf_free(&o->original);
}

/* ---- lines about single files ---- */

static void S_refuse(hb_imp_run *m, const char *rel, const char *why)
{
	hb_note(m->o->progress, 0, "import: %s/%s: %s: refused", m->dir, rel, why);
	m->sum->refused++;
}

/* ---- reading the harness's folder: no symbolic link is followed ---- */

/* Read DIR/rel; 1 when it is absent, -1 (reported) when it is not a regular file. */
static int S_read(hb_imp_run *m, hb_buf *out, const char *rel)
{
	char *path = hb_path_join(m->dir, rel);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), rc = -1;
	struct stat st;
	FILE *f;

	out->data = NULL;
	out->len = 0;
	if (fd < 0 && errno == ENOENT)
		rc = 1;
	else if (fd < 0 && errno == ELOOP)
		S_refuse(m, rel, "a symbolic link");
	else if (fd < 0)
		S_refuse(m, rel, strerror(errno));
	else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		S_refuse(m, rel, "not a regular file");
	else if (!(f = fdopen(fd, "rb")))
		S_refuse(m, rel, strerror(errno));
	else {
		fd = -1;
		if (hb_stream_read(out, f, path) == 0)
			rc = 0;
		else
			S_refuse(m, rel, hb_error_last());
		fclose(f);
	}
	if (fd >= 0)
		close(fd);
	free(path);
	return rc;
}

/* Append s (owned from here on) to the NULL-terminated list *v. */
static void S_push(char ***v, char *s)
{
	size_t n = 0;
	char **grown;
	while (*v && (*v)[n])
		n++;
	if (!(grown = realloc(*v, (n + 2) * sizeof(char *)))) {
		free(s);
		return;
	}
	grown[n] = s;
	grown[n + 1] = NULL;
	*v = grown;
}

/* The visible entries of DIR/rel that are folders (dirs) or regular files, sorted; a symbolic
 * link or a name that cannot be a file's is refused with a line. NULL when rel is absent. */
static char **S_list(hb_imp_run *m, const char *rel, int dirs)
{
	char *path = hb_path_join(m->dir, rel), **v = NULL;
	DIR *d = opendir(path);
	struct dirent *de;
	size_t n = 0;

	while (d && (de = readdir(d)) != NULL) {
		char *sub = hb_sprintf("%s/%s", rel, de->d_name), *full = hb_path_join(m->dir, sub);
		struct stat st;
		if (de->d_name[0] == '.')
			;
		else if (lstat(full, &st) != 0)
			S_refuse(m, sub, strerror(errno));
		else if (S_ISLNK(st.st_mode))
			S_refuse(m, sub, "a symbolic link");
		else if (dirs ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode)) {
			if (!hb_imp_name_ok(de->d_name))
				S_refuse(m, sub, "a name with characters other than letters, digits, '.', '_' "
					"and '-'");
			else
				S_push(&v, hb_strdup(de->d_name)), n++;
		}
		free(sub);
		free(full);
	}
	if (d)
		closedir(d);
	free(path);
	hb_strv_sort(v, n);
	return v;
}

/* Is the algorithm folder id one to import (--only)? Every one met is noted. */
static int S_wanted(hb_imp_run *m, const char *id)
{
	size_t i;
	for (i = 0; m->seen && m->seen[i] && strcmp(m->seen[i], id) != 0; i++)
		;
	if (!m->seen || !m->seen[i])
		S_push(&m->seen, hb_strdup(id));
	for (i = 0; m->only && m->only[i]; i++)
		if (strcmp(m->only[i], id) == 0)
			return 1;
	return !m->only;
}

/* A path a record names (its KAT log): relative and never above DIR. */
static int S_inside(const char *p)
{
	const char *s = p;
	if (!*p || *p == '/')
		return 0;
	while (*s) {
		size_t n = strcspn(s, "/");
		if (n == 0 || (n == 2 && strncmp(s, "..", 2) == 0))
			return 0;
		s += n + (s[n] == '/');
	}
	return 1;
}

/* Is the record's link to its KAT log sound? 0, or -1 with *why. */
static int S_kat_link(hb_imp_run *m, const hb_imp_record *r, char **why)
{
	size_t i;
	if (!r->kat_log)
		return 0;
	if (!S_inside(r->kat_log)) {
		*why = hb_sprintf("kat_log: \"%s\" leads out of %s: refused", r->kat_log, m->dir);
		return -1;
	}
	for (i = 0; i < m->nlogs; i++)
		if (strcmp(m->logs[i].o.src, r->kat_log) == 0 && r->kat_log_sha256 &&
			strcmp(m->logs[i].o.sha256, r->kat_log_sha256) != 0) {
			*why = hb_sprintf("kat_log_sha256: does not match %s", r->kat_log);
			return -1;
		}
	return 0;
}

/* Another converted file already goes where this one would: 0, or -1 with *why. */
static int S_unique(hb_imp_run *m, const char *id, const char *stem, unsigned long long bytes,
	int is_log, char **why)
{
	size_t i;
	for (i = 0; !is_log && i < m->nrecs; i++)
		if (strcmp(m->recs[i].o.id, id) == 0 && strcmp(m->recs[i].r.n.stem, stem) == 0 &&
			m->recs[i].r.bytes == bytes)
			break;
	if (!is_log && i < m->nrecs) {
		*why = hb_sprintf("instance, variant: the same as %s", m->recs[i].o.src);
		return -1;
	}
	for (i = 0; is_log && i < m->nlogs; i++)
		if (strcmp(m->logs[i].o.id, id) == 0 && strcmp(m->logs[i].k.n.stem, stem) == 0) {
			*why = hb_sprintf("instance, variant: the same as %s", m->logs[i].o.src);
			return -1;
		}
	return 0;
}

/* One file of an algorithm's folder: read, converted and kept, or skipped or refused. */
static void S_one(hb_imp_run *m, const char *kind, const char *id, const char *file)
{
	int is_log = strcmp(kind, "kat") == 0, rc;
	hb_imp_orig o = { hb_sprintf("%s/%s/%s", kind, id, file), hb_strdup(id), { NULL, 0 }, "" };
	hb_imp_ctx c = { m->o->system, id, file, m->instances };
	hb_imp_record r;
	hb_imp_kat k;
	unsigned char md[32];
	char *why = NULL;

	if ((rc = S_read(m, &o.original, o.src)) != 0)
		goto out;
	hb_sha256(md, o.original.data, o.original.len);
	hb_hex(o.sha256, md, 32, 0);
	if (is_log) {
		rc = hb_imp_kat_read(&k, &why, &c, (char *)o.original.data, o.original.len);
		if (rc == 0 && S_unique(m, id, k.n.stem, 0, 1, &why) != 0)
			rc = -1;
		if (rc != 0)
			hb_imp_kat_clear(&k);
		if (rc == 0 && (m->logs = realloc(m->logs, (m->nlogs + 1) * sizeof(hb_imp_kfile))) != NULL)
			m->logs[m->nlogs++] = (hb_imp_kfile){ k, o };
	} else {
		rc = hb_imp_record_read(&r, &why, &c, (char *)o.original.data, o.original.len);
		if (rc == 0 && (S_kat_link(m, &r, &why) != 0 ||
				S_unique(m, id, r.n.stem, r.bytes, 0, &why) != 0))
			rc = -1;
		if (rc != 0)
			hb_imp_record_clear(&r);
		if (rc == 0 && (m->recs = realloc(m->recs, (m->nrecs + 1) * sizeof(hb_imp_rfile))) != NULL)
			m->recs[m->nrecs++] = (hb_imp_rfile){ r, o };
	}
	if (rc == 1 && why) {
		hb_note(m->o->progress, 0, "import: skipped %s/%s: %s", m->dir, o.src, why);
		m->sum->skipped++;
	} else if (rc != 0 && why) {
		hb_note(m->o->progress, 0, "import: %s/%s: %s; %s skipped", m->dir, o.src, why,
			is_log ? "KAT log" : "record");
		m->sum->refused++;
	}
out:
	if (rc != 0)
		S_orig_clear(&o);
	free(why);
}

/* kat/ or records/: every algorithm folder, every file. */
static void S_walk(hb_imp_run *m, const char *kind)
{
	struct stat st;
	char *top = hb_path_join(m->dir, kind), **ids, **files;
	size_t i, k;

	if (lstat(top, &st) == 0 && !S_ISDIR(st.st_mode))
		S_refuse(m, kind, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a folder");
	free(top);
	ids = S_list(m, kind, 1);
	for (i = 0; ids && ids[i]; i++) {
		char *sub = hb_sprintf("%s/%s", kind, ids[i]);
		const char *ext = strcmp(kind, "kat") == 0 ? ".log" : ".json";
		files = S_wanted(m, ids[i]) ? S_list(m, sub, 0) : NULL;
		for (k = 0; files && files[k]; k++) {
			size_t n = strlen(files[k]);
			if (n <= strlen(ext) || strcmp(files[k] + n - strlen(ext), ext) != 0)
				continue; /* not evidence: the harness's temporary files, notes */
			if (strncmp(ids[i], "hash-", 5) == 0) {
				S_one(m, kind, ids[i], files[k]);
			} else {
				hb_note(m->o->progress, 0, "import: skipped %s/%s/%s: category %.*s, not hash",
					m->dir, sub, files[k], (int)strcspn(ids[i], "-"), ids[i]);
				m->sum->skipped++;
			}
		}
		hb_strv_free(files);
		free(sub);
	}
	hb_strv_free(ids);
}

/* --catalog's entry of id, checked and copied unchanged. */
static int S_catalog_copy(const char *from, const char *to, const char *id)
{
	hb_buf buf = { NULL, 0 };
	json_error_t jerr;
	json_t *j = NULL;
	const char *has;
	int rc = hb_file_read_raw(&buf, from);

	if (rc != 0)
		hb_error_prefix("--catalog: ");
	else if (!(j = json_loadb((char *)buf.data, buf.len, 0, &jerr)))
		rc = hb_error_set("%s:%d: %s", from, jerr.line, jerr.text);
	else if (!json_is_string(json_object_get(j, "name")) ||
		!(has = json_string_value(json_object_get(j, "id"))) || strcmp(has, id) != 0)
		rc = hb_error_set("%s: expected a catalog entry with \"id\": \"%s\" and a \"name\"", from,
			id);
	else
		rc = hb_file_write_atomic(to, buf.data, buf.len);
	json_decref(j);
	hb_buf_free(&buf);
	return rc;
}

/* Was anything of algorithm id converted? */
static int S_has(const hb_imp_run *m, const char *id)
{
	size_t i;
	for (i = 0; i < m->nrecs; i++)
		if (strcmp(m->recs[i].o.id, id) == 0)
			return 1;
	for (i = 0; i < m->nlogs; i++)
		if (strcmp(m->logs[i].o.id, id) == 0)
			return 1;
	return 0;
}

/* Into stage/algorithms/: the entry of each imported algorithm that DATA/algorithms/ lacks, from
 * --catalog DIR/algorithms/<id>.json when there is one (copied unchanged), else from the logs;
 * *made lists the files written. */
static int S_catalog(hb_imp_run *m, const char *stage, char ***made)
{
	size_t i;
	int rc = 0;
	for (i = 0; m->seen && m->seen[i] && rc == 0; i++) {
		const char *id = m->seen[i];
		char *have = hb_sprintf("%s/algorithms/%s.json", m->o->data_dir, id);
		char *to = hb_sprintf("%s/%s.json", stage, id), *from = m->o->catalog ?
			hb_sprintf("%s/algorithms/%s.json", m->o->catalog, id) : NULL;
		struct stat st;
		if (!S_has(m, id))
			;
		else if (lstat(have, &st) == 0)
			m->sum->catalog_kept++;
		else {
			json_t *j = from && hb_is_file(from) ? NULL : hb_imp_catalog_entry(m, id);
			rc = j ? hb_json_write(to, j) : S_catalog_copy(from, to, id);
			json_decref(j);
			if (rc == 0)
				S_push(made, hb_sprintf("%s.json", id));
		}
		free(have);
		free(to);
		free(from);
	}
	return rc;
}

/* ---- writing ---- */

static int S_put(const char *root, const char *rel, const void *data, size_t len, json_t *j)
{
	char *path = hb_path_join(root, rel), *dir = hb_strdup(path);
	int rc;
	*strrchr(dir, '/') = 0;
	rc = hb_mkdir_p(dir);
	if (rc == 0)
		rc = j ? hb_json_write(path, j) : hb_file_write_atomic(path, data, len);
	free(path);
	free(dir);
	return rc;
}

/* The system's folder under sys: KAT logs and summaries, kat.sha256, records and their originals,
 * campaign.json and build.json as they were, the method page, system.json and SHA256SUMS. */
static int S_fill(hb_imp_run *m, const char *sys, json_t *system)
{
	char *rel;
	size_t i, k;
	int rc = 0;

	for (i = 0; i < m->nlogs && rc == 0; i++) {
		hb_imp_kfile *l = &m->logs[i];
		char *manifest = NULL;
		size_t len = 0;
		FILE *f;
		rel = hb_sprintf("kat/%s/%s.log", l->o.id, l->k.n.stem);
		json_object_set_new(l->k.summary, "imported", json_pack("{s:s, s:s, s:s, s:s}", "tool",
			"ngcc-harness", "original", rel, "sha256", l->o.sha256, "note", "the sha256 of a "
			"manifest line of the harness's log hashes the normalised form of the KAT file"));
		rc = S_put(sys, rel, l->o.original.data, l->o.original.len, NULL);
		free(rel);
		rel = hb_sprintf("kat/%s/%s.json", l->o.id, l->k.n.stem);
		if (rc == 0)
			rc = S_put(sys, rel, NULL, 0, l->k.summary);
		free(rel);
		if (i + 1 < m->nlogs && strcmp(m->logs[i + 1].o.id, l->o.id) == 0)
			continue;
		/* the last log of its algorithm: kat.sha256 of them all, each line once */
		f = open_memstream(&manifest, &len);
		for (k = 0; k <= i; k++) {
			const char *line = m->logs[k].k.manifest;
			while (strcmp(m->logs[k].o.id, l->o.id) == 0 && line && *line) {
				size_t n = strcspn(line, "\n") + 1;
				if (!memmem(manifest ? manifest : "", len, line, n))
					fwrite(line, 1, n, f), fflush(f);
				line += n;
			}
		}
		fclose(f);
		rel = hb_sprintf("kat/%s/kat.sha256", l->o.id);
		if (rc == 0 && len)
			rc = S_put(sys, rel, manifest, len, NULL);
		free(rel);
		free(manifest);
	}
	for (i = 0; i < m->nrecs && rc == 0; i++) {
		hb_imp_rfile *r = &m->recs[i];
		char *orig = hb_sprintf("imported/%s", r->o.src);
		rel = hb_sprintf("records/%s/%s__hash_%llu.json", r->o.id, r->r.n.stem, r->r.bytes);
		json_object_set_new(r->r.record, "imported", json_pack("{s:s, s:s, s:s}", "tool",
			"ngcc-harness", "original", orig, "sha256", r->o.sha256));
		rc = S_put(sys, orig, r->o.original.data, r->o.original.len, NULL);
		if (rc == 0)
			rc = S_put(sys, rel, NULL, 0, r->r.record);
		free(rel);
		free(orig);
	}
	if (rc == 0 && m->campaign)
		rc = S_put(sys, "imported/campaign.json", m->campaign_raw.data, m->campaign_raw.len, NULL);
	if (rc == 0 && m->build)
		rc = S_put(sys, "imported/build.json", m->build_raw.data, m->build_raw.len, NULL);
	if (rc == 0 && m->method)
		rc = S_put(sys, "method.md", m->method_raw.data, m->method_raw.len, NULL);
	if (rc == 0)
		rc = S_put(sys, "system.json", NULL, 0, system);
	return rc == 0 ? hb_write_sha256sums(sys) : rc;
}

static int S_remove_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)st, (void)f;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* Put sys in place of the target: exchanged atomically where the file system can, the old
 * folder left at sys to be removed. */
static int S_swap(const hb_imp_run *m, const char *sys, const char *stage)
{
	char *old;
	int rc = 0;
	if (renameat2(AT_FDCWD, sys, AT_FDCWD, m->target, RENAME_EXCHANGE) == 0)
		return 0;
	if (errno == ENOENT)
		return rename(sys, m->target) == 0 ? 0 : hb_error_set("import: %s: cannot put the import "
			"in place: %s", m->target, strerror(errno));
	old = hb_path_join(stage, "old");
	if (rename(m->target, old) != 0 || rename(sys, m->target) != 0) {
		rc = hb_error_set("import: %s: cannot put the import in place: %s", m->target,
			strerror(errno));
		rename(old, m->target);
	}
	free(old);
	return rc;
}

static int S_write(hb_imp_run *m, json_t *system)
{
	const char *data = m->o->data_dir;
	char stage[PATH_MAX], sys[PATH_MAX + 8], alg[PATH_MAX + 16], cat[PATH_MAX];
	char entry[2 * PATH_MAX];
	char **names = NULL;
	int made_data = !hb_is_dir(data), made_cat, rc, *mine = NULL;
	size_t i, n = 0;

	snprintf(stage, sizeof(stage), "%s/.%s.import.%ld", data, m->o->system, (long)getpid());
	snprintf(sys, sizeof(sys), "%s/system", stage);
	snprintf(alg, sizeof(alg), "%s/algorithms", stage);
	snprintf(cat, sizeof(cat), "%s/algorithms", data);
	made_cat = !hb_is_dir(cat);
	nftw(stage, S_remove_one, 16, FTW_DEPTH | FTW_PHYS);
	if ((rc = hb_mkdir_p(sys)) != 0 || (rc = hb_mkdir_p(alg)) != 0 ||
		(rc = S_fill(m, sys, system)) != 0 || (rc = S_catalog(m, alg, &names)) != 0)
		goto out;
	while (names && names[n])
		n++;
	mine = calloc(n + 1, sizeof(int));
	if (n && (rc = hb_mkdir_p(cat)) != 0)
		goto out;
	/* catalog entries: new files only, linked so that one written meanwhile is kept */
	for (i = 0; i < n && rc == 0; i++) {
		char *from = hb_path_join(alg, names[i]), *to = hb_path_join(cat, names[i]);
		if (link(from, to) == 0)
			mine[i] = 1, m->sum->catalog_written++;
		else if (errno == EEXIST)
			m->sum->catalog_kept++;
		else
			rc = hb_error_set("import: %s: %s", to, strerror(errno));
		free(from);
		free(to);
	}
	if (rc == 0)
		rc = S_swap(m, sys, stage);
out:
	/* a failure takes back what it put in place: the new catalog entries, folders it made */
	for (i = 0; rc != 0 && i < n; i++) {
		snprintf(entry, sizeof(entry), "%s/%s", cat, names[i]);
		if (mine[i])
			unlink(entry);
	}
	if (rc != 0 && made_cat)
		rmdir(cat);
	nftw(stage, S_remove_one, 16, FTW_DEPTH | FTW_PHYS);
	if (rc != 0 && made_data)
		rmdir(data);
	hb_strv_free(names);
	free(mine);
	return rc;
}

/* ---- the whole ---- */

/* DATA/NAME may be replaced only when it is absent, empty or an earlier import. */
static int S_check_target(hb_imp_run *m)
{
	char real_t[PATH_MAX], real_d[PATH_MAX], *sys_path = hb_path_join(m->target, "system.json");
	struct stat st;
	json_t *sys = NULL;
	const char *tool;
	DIR *d;
	int rc = 0, entries = 0;

	if (lstat(m->target, &st) != 0) {
		if (errno != ENOENT)
			rc = hb_error_set("import: %s: %s", m->target, strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		rc = hb_error_set("import: %s exists and is not a folder: remove it or choose another "
			"--system", m->target);
		goto out;
	}
	if (realpath(m->target, real_t) && realpath(m->dir, real_d) &&
		strncmp(real_d, real_t, strlen(real_t)) == 0 && (!real_d[strlen(real_t)] ||
			real_d[strlen(real_t)] == '/')) {
		rc = hb_error_set("import: %s lies inside %s, which the import replaces: import from "
			"another copy", m->dir, m->target);
		goto out;
	}
	for (d = opendir(m->target); d && readdir(d); )
		entries++;
	if (d)
		closedir(d);
	sys = entries > 2 ? json_load_file(sys_path, 0, NULL) : NULL;
	tool = json_string_value(json_object_get(json_object_get(sys, "measured_by"), "tool"));
	if (entries > 2 && (!tool || strcmp(tool, "ngcc-harness") != 0))
		rc = hb_error_set("import: %s holds evidence that no import wrote (its system.json has "
			"no \"measured_by\" of ngcc-harness): remove it or choose another --system",
			m->target);
out:
	json_decref(sys);
	free(sys_path);
	return rc;
}

/* DIR/name as JSON into *out (NULL when absent); -1 when it is there but unusable. */
static int S_load(hb_imp_run *m, const char *name, json_t **out, hb_buf *raw)
{
	json_error_t jerr;
	int rc = S_read(m, raw, name);
	*out = NULL;
	if (rc != 0)
		return rc < 0 ? hb_error_set("import: %s/%s: refused (above)", m->dir, name) : 0;
	if (!(*out = json_loadb((char *)raw->data, raw->len, 0, &jerr)) || !json_is_object(*out))
		return hb_error_set("import: %s/%s:%d: %s", m->dir, name, jerr.line, *out ?
			"expected a JSON object" : jerr.text);
	return 0;
}

static int S_only(hb_imp_run *m)
{
	char *copy = hb_strdup(m->o->only), *tok, *save = NULL;
	int rc = 0;
	for (tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
		if (!hb_imp_name_ok(tok))
			rc = hb_error_set("import: --only: '%s' is not an algorithm id", tok);
		S_push(&m->only, hb_strdup(tok));
	}
	free(copy);
	return rc != 0 ? rc : m->only ? 0 : hb_error_set("import: --only: empty list");
}

/* Every --only id is a folder of DIR's records or KAT logs. */
static int S_check_only(const hb_imp_run *m)
{
	size_t i, k;
	for (i = 0; m->only && m->only[i]; i++) {
		for (k = 0; m->seen && m->seen[k] && strcmp(m->seen[k], m->only[i]) != 0; k++)
			;
		if (!m->seen || !m->seen[k])
			return hb_error_set("import: --only: no records or KAT logs of '%s' in %s", m->only[i],
				m->dir);
	}
	return 0;
}

/* --method FILE, else DIR/../../method_<basename of DIR>.md where the harness writes it. */
static int S_method(hb_imp_run *m)
{
	char real[PATH_MAX], *rel;
	int rc;
	if (m->o->method) {
		m->method = hb_strdup(m->o->method);
		return hb_file_read_raw(&m->method_raw, m->method) == 0 ? 0 :
			hb_error_prefix("import: --method: ");
	}
	if (!realpath(m->dir, real))
		return hb_error_set("import: %s: %s", m->dir, strerror(errno));
	rel = hb_sprintf("../../method_%s.md", strrchr(real, '/') + 1);
	rc = S_read(m, &m->method_raw, rel);
	if (rc == 0)
		m->method = hb_path_join(m->dir, rel);
	else if (rc > 0)
		hb_note(m->o->progress, 0, "import: no method page at %s/%s: the system's method page "
			"will be hashbench's own", m->dir, rel);
	free(rel);
	return 0;
}

/* The KAT log cuts its build_flags line; a record of the same library has them whole. */
static void S_full_cflags(hb_imp_run *m)
{
	size_t i, k;
	for (i = 0; i < m->nlogs; i++) {
		const char *cut = json_string_value(json_object_get(m->logs[i].k.summary, "cflags"));
		for (k = 0; cut && k < m->nrecs; k++)
			if (strcmp(m->recs[k].o.id, m->logs[i].o.id) == 0 && m->recs[k].r.cflags &&
				strcmp(m->recs[k].r.n.stem, m->logs[i].k.n.stem) == 0 &&
				strncmp(m->recs[k].r.cflags, cut, strlen(cut)) == 0) {
				json_object_set_new(m->logs[i].k.summary, "cflags",
					json_string(m->recs[k].r.cflags));
				break;
			}
	}
}

static int S_has_catalog(const char *dir)
{
	char *sub = hb_path_join(dir, "algorithms");
	int ok = hb_is_dir(sub);
	free(sub);
	return ok;
}

static void S_free(hb_imp_run *m)
{
	size_t i;
	for (i = 0; i < m->nrecs; i++) {
		hb_imp_record_clear(&m->recs[i].r);
		S_orig_clear(&m->recs[i].o);
	}
	for (i = 0; i < m->nlogs; i++) {
		hb_imp_kat_clear(&m->logs[i].k);
		S_orig_clear(&m->logs[i].o);
	}
	free(m->recs);
	free(m->logs);
	hb_strv_free(m->only);
	hb_strv_free(m->seen);
	json_decref(m->campaign);
	json_decref(m->build);
	hb_buf_free(&m->campaign_raw);
	hb_buf_free(&m->build_raw);
	hb_buf_free(&m->method_raw);
	free(m->method);
	free(m->dir);
	free(m->target);
}

int hb_import_ngcc_harness(hb_import_summary *out, const hb_import_opts *o)
{
	hb_imp_run m;
	json_t *sys = NULL;
	size_t n = o->dir ? strlen(o->dir) : 0;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&m, 0, sizeof(m));
	m.o = o;
	m.sum = out;
	while (n > 1 && o->dir[n - 1] == '/')
		n--;
	m.dir = hb_sprintf("%.*s", (int)n, o->dir ? o->dir : "");
	m.target = hb_path_join(o->data_dir, o->system ? o->system : "");
	if (!o->system || !hb_imp_name_ok(o->system) || strlen(o->system) > 64 ||
		!isalnum((unsigned char)o->system[0]))
		rc = hb_error_set("import: --system %s: expected 1 to 64 letters, digits, '_', '-' or "
			"'.', starting with a letter or digit", o->system ? o->system : "(missing)");
	else if (!hb_is_dir(m.dir))
		rc = hb_error_set("import: %s: not a folder (expected the harness's "
			"performance/data/<system>)", m.dir);
	else if (o->catalog && !S_has_catalog(o->catalog))
		rc = hb_error_set("import: --catalog %s: no folder algorithms/ there", o->catalog);
	else if ((rc = S_check_target(&m)) == 0 && (!o->only || (rc = S_only(&m)) == 0) &&
		(rc = S_load(&m, "campaign.json", &m.campaign, &m.campaign_raw)) == 0 &&
		(rc = S_load(&m, "build.json", &m.build, &m.build_raw)) == 0) {
		m.instances = json_object_get(m.build, "instances");
		if (m.build && !json_is_object(m.instances))
			rc = hb_error_set("import: %s/build.json: instances: expected an object", m.dir);
	}
	if (rc != 0)
		goto out;
	S_walk(&m, "kat");
	S_walk(&m, "records");
	if ((rc = S_check_only(&m)) != 0 || (rc = S_method(&m)) != 0)
		goto out;
	if (m.nrecs == 0) {
		rc = hb_error_set("import: %s: no hash record to import%s", m.dir, out->refused ?
			" (those there were refused, above)" : "");
		goto out;
	}
	S_full_cflags(&m);
	if ((rc = hb_imp_system(&sys, &m)) != 0 || (rc = S_write(&m, sys)) != 0)
		goto out;
	out->records = m.nrecs;
	out->kat_logs = m.nlogs;
	out->method = m.method != NULL;
out:
	/* every message of a failed import starts the same way */
	if (rc != 0 && strncmp(hb_error_last(), "import: ", 8) != 0)
		hb_error_prefix("import: ");
	json_decref(sys);
	S_free(&m);
	return rc;
}
