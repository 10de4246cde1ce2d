/* declare.c — the instances algorithm.json declares ("instances"): several from one folder. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hbpackage.h"

static int S_is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static const char *S_base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The regular files of dir (not below it) ending in .c (want_c) or .h (want_h), sorted. */
static int S_folder_files(hb_strlist *out, const char *dir, int want_c, int want_h)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t first = out->n;
	int rc = 0;

	if (!d)
		return hb_error_set("%s: %s", dir, strerror(errno));
	while ((de = readdir(d)) != NULL && rc == 0) {
		size_t n = strlen(de->d_name);
		char *path;
		if (de->d_name[0] == '.' || n < 3 || de->d_name[n - 2] != '.')
			continue;
		if (!(want_c && de->d_name[n - 1] == 'c') && !(want_h && de->d_name[n - 1] == 'h'))
			continue;
		path = hb_path_join(dir, de->d_name);
		if (path && !hb_is_file(path)) {
			free(path);
			continue;
		}
		rc = hb_strlist_add(out, path);
	}
	closedir(d);
	if (out->n > first)
		hb_strv_sort(out->v + first, out->n - first);
	return rc;
}

/* Where each declared define goes: rewritten in the folder's headers (inst->rewrites), else a -D
 * flag (inst->define_flags) when the code uses it (the two that name the instance always may
 * be given); anything else is a mistake in ctx. */
static int S_place_defines(hb_instance *inst, const char *ctx)
{
	hb_strlist headers = { 0 }, lines = { 0 }, flags = { 0 }, others = { 0 }, all = { 0 };
	char **other = NULL, **every = NULL;
	size_t ndefs = 0, i, *found;
	int rc;

	while (inst->defines[ndefs])
		ndefs++;
	found = calloc(ndefs + 1, sizeof(*found));
	if (!found)
		return hb_error_set("out of memory");
	rc = S_folder_files(&headers, inst->dir, 0, 1);
	for (i = 0; i < headers.n && rc == 0; i++) {
		hb_buf buf;
		char *text = NULL;
		size_t tlen;
		if ((rc = hb_file_read(&buf, headers.v[i])) != 0)
			break;
		rc = hb_define_rewrite(&text, &tlen, &lines, found, (char *)buf.data, buf.len,
			S_base(headers.v[i]), inst->defines, ctx);
		free(text);
		hb_buf_free(&buf);
	}
	/* what the build sees besides the folder's headers: its C files, the other include
	 * folders and the sources */
	if (rc == 0)
		rc = S_folder_files(&others, inst->dir, 1, 0);
	for (i = 0; inst->include_dirs[i] && rc == 0; i++)
		if (strcmp(inst->include_dirs[i], inst->dir) != 0 && hb_is_dir(inst->include_dirs[i]))
			rc = S_folder_files(&others, inst->include_dirs[i], 1, 1);
	for (i = 0; inst->sources[i] && rc == 0; i++)
		rc = hb_strlist_add(&others, hb_strdup(inst->sources[i]));
	for (i = 0; i < headers.n && rc == 0; i++)
		rc = hb_strlist_add(&all, hb_strdup(headers.v[i]));
	for (i = 0; i < others.n && rc == 0; i++)
		rc = hb_strlist_add(&all, hb_strdup(others.v[i]));
	other = hb_strlist_take(&others);
	every = hb_strlist_take(&all);
	if (rc == 0 && (!other || !every))
		rc = hb_error_set("out of memory");
	for (i = 0; i < ndefs && rc == 0; i++) {
		const char *eq = strchr(inst->defines[i], '='), *where;
		char *name;
		if (found[i])
			continue;
		name = strndup(inst->defines[i], (size_t)(eq - inst->defines[i]));
		if (!name)
			rc = hb_error_set("out of memory");
		else if ((where = hb_define_file(other, name)) != NULL)
			rc = hb_error_set("%s.%s: %s defines it unconditionally, which a -D cannot change "
				"(only the headers of %s are rewritten)", ctx, name, where, inst->dir);
		else if (!hb_code_uses(every, name) && strcmp(name, "ALGORITHM_INSTANCE") != 0 &&
			strcmp(name, "DIGEST_BIT_LENGTH") != 0)
			rc = hb_error_set("%s.%s: no header in %s defines %s and no source uses it",
				ctx, name, inst->dir, name);
		else
			rc = hb_strlist_add(&flags, hb_sprintf("-D%s", inst->defines[i]));
		free(name);
	}
	free(found);
	hb_strv_free(hb_strlist_take(&headers));
	hb_strv_free(other);
	hb_strv_free(every);
	hb_strv_free(inst->rewrites);
	hb_strv_free(inst->define_flags);
	inst->rewrites = hb_strlist_take(&lines);
	inst->define_flags = hb_strlist_take(&flags);
	if (rc == 0 && (!inst->rewrites || !inst->define_flags))
		rc = hb_error_set("out of memory");
	return rc;
}

/* ---- paths inside the package ---- */

/* rel (relative to the folder of algorithm.json) as a path below it: no absolute path, no '..'
 * above it, no symbolic link leading out; it must exist as a folder (want_dir) or a file.
 * Messages quote the path as written in field. */
static int S_inside(char **out, const hb_algorithm *alg, const char *rel, const char *written,
	const char *field, int want_dir)
{
	char *norm = malloc(strlen(rel) + 1), *copy = hb_strdup(rel), *tok, *save = NULL, *path;
	char real_pkg[PATH_MAX], real_path[PATH_MAX];
	size_t len = 0, plen;
	struct stat st;
	int rc = 0;

	*out = NULL;
	if (!norm || !copy) {
		free(norm);
		free(copy);
		return hb_error_set("out of memory");
	}
	norm[0] = 0;
	if (rel[0] == '/' || !rel[0])
		rc = hb_error_set("%s: %s: \"%s\" must be a path relative to the folder of "
			"algorithm.json", alg->json_path, field, written);
	for (tok = strtok_r(copy, "/", &save); tok && rc == 0; tok = strtok_r(NULL, "/", &save)) {
		if (strcmp(tok, ".") == 0)
			continue;
		if (strcmp(tok, "..") == 0) {
			char *slash;
			if (len == 0)
				rc = hb_error_set("%s: %s: \"%s\" leads out of the package", alg->json_path,
					field, written);
			slash = strrchr(norm, '/');
			len = slash ? (size_t)(slash - norm) : 0;
			norm[len] = 0;
			continue;
		}
		len += (size_t)sprintf(norm + len, "%s%s", len ? "/" : "", tok);
	}
	free(copy);
	if (rc != 0) {
		free(norm);
		return rc;
	}
	path = len ? hb_path_join(alg->dir, norm) : hb_strdup(alg->dir);
	free(norm);
	if (!path)
		return hb_error_set("out of memory");
	if (stat(path, &st) != 0)
		rc = hb_error_set("%s: %s: no such %s: %s", alg->json_path, field,
			want_dir ? "folder" : "file", path);
	else if (want_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		rc = hb_error_set("%s: %s: not a %s: %s", alg->json_path, field,
			want_dir ? "folder" : "file", path);
	else if (!realpath(alg->dir, real_pkg) || !realpath(path, real_path))
		rc = hb_error_set("%s: %s: %s: %s", alg->json_path, field, path, strerror(errno));
	else if (plen = strlen(real_pkg), strncmp(real_path, real_pkg, plen) != 0 ||
		(real_path[plen] != '/' && real_path[plen] != 0))
		rc = hb_error_set("%s: %s: \"%s\" leads out of the package through a symbolic link",
			alg->json_path, field, written);
	if (rc != 0) {
		free(path);
		return rc;
	}
	*out = path;
	return 0;
}

/* The instance folder relative to the folder of algorithm.json. */
static const char *S_rel(const hb_algorithm *alg, const char *dir)
{
	size_t n = strlen(alg->dir);
	if (strncmp(dir, alg->dir, n) == 0 && dir[n] == '/')
		return dir + n + 1;
	return strncmp(dir, alg->dir, n) == 0 && !dir[n] ? "." : dir;
}

/* ---- one declaration ---- */

typedef struct {
	hb_algorithm *alg;
	json_t *build;
	char **files;     /* the package's files */
	size_t ndiscovered;
	const char *name; /* the declared instance */
	json_t *sources;  /* its "sources", or NULL */
	char **defines;   /* its "defines" as NAME=VALUE */
	int digest_bits;  /* from defines.DIGEST_BIT_LENGTH, 0 when not given */
	char ctx[512];    /* "…/algorithm.json: instances.NAME" */
} S_decl;

/* "defines": an object of macro names and their text (a string, or an integer). */
static int S_parse_defines(S_decl *d, json_t *defs)
{
	hb_strlist l = { 0 };
	const char *k;
	json_t *v;
	int rc = 0;

	if (defs && !json_is_object(defs))
		return hb_error_set("%s.defines: expected an object of macro names and values", d->ctx);
	json_object_foreach(defs, k, v) {
		char *value;
		size_t i;
		if (!*k || isdigit((unsigned char)k[0]))
			rc = hb_error_set("%s.defines: \"%s\" is not a macro name", d->ctx, k);
		for (i = 0; k[i] && rc == 0; i++)
			if (!S_is_ident(k[i]))
				rc = hb_error_set("%s.defines: \"%s\" is not a macro name", d->ctx, k);
		if (rc != 0)
			break;
		if (json_is_string(v))
			value = hb_strdup(json_string_value(v));
		else if (json_is_integer(v))
			value = hb_sprintf("%lld", (long long)json_integer_value(v));
		else {
			rc = hb_error_set("%s.defines.%s: expected a string (the macro's text, e.g. \"256\")",
				d->ctx, k);
			break;
		}
		if (value && strpbrk(value, "\r\n")) {
			free(value);
			rc = hb_error_set("%s.defines.%s: the value must be one line", d->ctx, k);
			break;
		}
		if (value && strcmp(k, "ALGORITHM_INSTANCE") == 0) {
			char *want = hb_sprintf("\"%s\"", d->name);
			if (want && strcmp(value, want) != 0)
				rc = hb_error_set("%s.defines.ALGORITHM_INSTANCE: expected \"\\\"%s\\\"\" (the "
					"instance's name as a C string), got %s", d->ctx, d->name, value);
			free(want);
		}
		if (value && rc == 0 && strcmp(k, "DIGEST_BIT_LENGTH") == 0) {
			/* read the way the instance header's is */
			char *text = hb_sprintf("#define ALGORITHM_INSTANCE \"%s\"\n#define DIGEST_BIT_LENGTH "
				"%s\n", d->name, value), *got = NULL, *where = hb_sprintf("%s.defines", d->ctx);
			if (text && where && hb_header_scan(&got, &d->digest_bits, text, strlen(text),
					where) < 0)
				rc = HB_ERROR;
			free(got);
			free(text);
			free(where);
		}
		if (rc == 0)
			rc = hb_strlist_add(&l, value ? hb_sprintf("%s=%s", k, value) : NULL);
		free(value);
		if (rc != 0)
			break;
	}
	d->defines = hb_strlist_take(&l);
	if (rc == 0 && !d->defines)
		rc = hb_error_set("out of memory");
	return rc;
}

/* The folder's header that defines ALGORITHM_INSTANCE, if any: its path and digest length (a
 * malformed one, which discovery warns about, does not count). */
static int S_folder_header(hb_instance *inst)
{
	hb_strlist headers = { 0 };
	size_t i;
	int rc = S_folder_files(&headers, inst->dir, 0, 1);
	for (i = 0; i < headers.n && rc == 0 && !inst->header; i++) {
		char *name = NULL;
		int bits = 0;
		if (hb_header_read(&name, &bits, headers.v[i]) > 0) {
			inst->header = hb_strdup(headers.v[i]);
			inst->digest_bits = bits;
		}
		free(name);
	}
	hb_strv_free(hb_strlist_take(&headers));
	return rc;
}

/* Append one declared instance: from the discovered instance base (its index) or, when base is
 * -1, from the folder dir (taken). */
static int S_add(S_decl *d, long base, char *dir)
{
	hb_algorithm *alg = d->alg;
	hb_instance *inst, *grown, *from;
	char field[600];
	size_t k, i;
	int rc = 0;

	grown = realloc(alg->instances, (alg->ninstances + 1) * sizeof(*grown));
	if (!grown) {
		free(dir);
		return hb_error_set("out of memory");
	}
	alg->instances = grown;
	from = base >= 0 ? &alg->instances[base] : NULL;
	inst = &alg->instances[alg->ninstances];
	memset(inst, 0, sizeof(*inst));
	alg->ninstances++; /* from here on the catalog frees it */
	inst->name = hb_strdup(d->name);
	if (from) {
		inst->dir = hb_strdup(from->dir);
		inst->impl = hb_strdup(from->impl);
		inst->version_folder = from->version_folder ? hb_strdup(from->version_folder) : NULL;
		inst->header = from->header ? hb_strdup(from->header) : NULL;
		inst->digest_bits = from->digest_bits;
	} else {
		inst->dir = dir;
		inst->impl = hb_impl_from_path(&inst->version_folder, dir);
		if ((rc = S_folder_header(inst)) != 0)
			return rc;
		inst->profile = hb_strdup(inst->impl);
	}
	if (!inst->name || !inst->dir || !inst->impl)
		return hb_error_set("out of memory");
	if (d->digest_bits)
		inst->digest_bits = d->digest_bits;
	if (!inst->digest_bits)
		return hb_error_set("%s.defines.DIGEST_BIT_LENGTH: no header in %s defines "
			"DIGEST_BIT_LENGTH: set it here", d->ctx, inst->dir);
	for (k = 0; k + 1 < alg->ninstances; k++)
		if (strcmp(alg->instances[k].name, inst->name) == 0 &&
			strcmp(alg->instances[k].impl, inst->impl) == 0)
			return hb_error_set("%s: instance %s (%s) is %s in %s: choose another name",
				d->ctx, inst->name, inst->impl, k < d->ndiscovered ? "also discovered" :
				"declared twice", alg->instances[k].dir);
	if (d->sources) {
		hb_strlist l = { 0 };
		json_t *v;
		if (!json_is_array(d->sources))
			return hb_error_set("%s.sources: expected an array of file names", d->ctx);
		json_array_foreach(d->sources, i, v) {
			char *rel, *path = NULL;
			snprintf(field, sizeof(field), "%s.sources[%zu]", d->ctx + strlen(alg->json_path) + 2,
				i);
			if (!json_is_string(v)) {
				rc = hb_error_set("%s.sources[%zu]: expected a string", d->ctx, i);
				break;
			}
			rel = hb_sprintf("%s/%s", S_rel(alg, inst->dir), json_string_value(v));
			rc = rel ? S_inside(&path, alg, rel, json_string_value(v), field, 0) :
				hb_error_set("out of memory");
			free(rel);
			if (rc == 0)
				rc = hb_strlist_add(&l, path);
			if (rc != 0)
				break;
		}
		inst->sources = hb_strlist_take(&l);
		if (rc != 0)
			return rc;
	}
	inst->defines = hb_strv_dup(d->defines);
	if (!inst->defines)
		return hb_error_set("out of memory");
	if (hb_instance_configure(inst, alg, d->build, from) != 0)
		return HB_ERROR;
	snprintf(field, sizeof(field), "%s.defines", d->ctx);
	if ((rc = S_place_defines(inst, field)) != 0)
		return rc;
	hb_instance_find_kat(inst, d->files);
	return 0;
}

/* "from": "NAME" (every implementation discovery found of it) or "NAME:IMPL". */
static int S_from(S_decl *d, json_t *from)
{
	const char *spec, *colon;
	size_t k, nlen, made = 0;
	int seen_name = 0, rc = 0;

	if (!json_is_string(from))
		return hb_error_set("%s.from: expected the name of a discovered instance", d->ctx);
	spec = json_string_value(from);
	colon = strchr(spec, ':');
	nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	for (k = 0; k < d->ndiscovered && rc == 0; k++) {
		const hb_instance *b = &d->alg->instances[k];
		if (strlen(b->name) != nlen || strncmp(b->name, spec, nlen) != 0)
			continue;
		seen_name = 1;
		if (colon && strcmp(b->impl, colon + 1) != 0)
			continue;
		rc = S_add(d, (long)k, NULL);
		made++;
	}
	if (rc == 0 && !made)
		rc = seen_name ?
			hb_error_set("%s.from: discovery found no implementation '%s' of %.*s (see hashbench "
				"list)", d->ctx, colon + 1, (int)nlen, spec) :
			hb_error_set("%s.from: discovery found no instance \"%.*s\" in this package (see "
				"hashbench list)", d->ctx, (int)nlen, spec);
	return rc;
}

static int S_declare(hb_algorithm *alg, size_t ndiscovered, const char *name, json_t *decl,
	json_t *build, char **files)
{
	static const char *known[] = { "from", "folder", "sources", "defines", NULL };
	S_decl d;
	json_t *from, *folder, *v;
	const char *k;
	size_t i;
	int rc = 0;

	memset(&d, 0, sizeof(d));
	d.alg = alg;
	d.build = build;
	d.files = files;
	d.ndiscovered = ndiscovered;
	d.name = name;
	snprintf(d.ctx, sizeof(d.ctx), "%s: instances.%s", alg->json_path, name);
	if (!hb_instance_name_valid(name))
		return hb_error_set("%s: an instance name is 1 to 64 letters, digits, '-' or '_'", d.ctx);
	if (!json_is_object(decl))
		return hb_error_set("%s: expected an object", d.ctx);
	json_object_foreach(decl, k, v) {
		for (i = 0; known[i] && strcmp(known[i], k) != 0; i++)
			;
		if (!known[i])
			return hb_error_set("%s.%s: unknown field (known: from, folder, sources, defines)",
				d.ctx, k);
	}
	from = json_object_get(decl, "from");
	folder = json_object_get(decl, "folder");
	if (!from == !folder)
		return hb_error_set("%s: give either \"from\" (a discovered instance) or \"folder\"",
			d.ctx);
	d.sources = json_object_get(decl, "sources");
	if ((rc = S_parse_defines(&d, json_object_get(decl, "defines"))) == 0) {
		if (from) {
			rc = S_from(&d, from);
		} else if (!json_is_string(folder)) {
			rc = hb_error_set("%s.folder: expected a path relative to the folder of "
				"algorithm.json", d.ctx);
		} else {
			char *dir = NULL, field[600];
			snprintf(field, sizeof(field), "instances.%s.folder", name);
			rc = S_inside(&dir, alg, json_string_value(folder), json_string_value(folder), field,
				1);
			if (rc == 0)
				rc = S_add(&d, -1, dir);
		}
	}
	hb_strv_free(d.defines);
	return rc;
}

int hb_declare_instances(hb_algorithm *alg, json_t *root, json_t *build, char **files)
{
	json_t *insts = json_object_get(root, "instances"), *decl;
	size_t ndiscovered = alg->ninstances;
	const char *name;

	if (!insts)
		return 0;
	if (!json_is_object(insts))
		return hb_error_set("%s: instances: expected an object of instance names", alg->json_path);
	json_object_foreach(insts, name, decl)
		if (S_declare(alg, ndiscovered, name, decl, build, files) != 0)
			return HB_ERROR;
	return 0;
}

/* ---- the private copy ---- */

/* Write path only when its content differs, so the copy's files (and the build cache) stay. */
static int S_write_if_changed(const char *path, const char *data, size_t len)
{
	hb_buf old;
	if (hb_is_file(path) && hb_file_read_raw(&old, path) == 0) {
		int same = old.len == len && memcmp(old.data, data, len) == 0;
		hb_buf_free(&old);
		if (same)
			return 0;
	}
	return hb_file_write_atomic(path, data, len);
}

int hb_declare_copy(char **out_dir, const hb_instance *inst, const char *work_dir)
{
	hb_strlist files = { 0 };
	char *stem = hb_instance_stem(inst), *dir = NULL;
	DIR *d;
	struct dirent *de;
	size_t i;
	int rc;

	*out_dir = NULL;
	/* one folder per (algorithm, instance, implementation): two instances never share it */
	dir = hb_sprintf("%s/declared/%s/%s", work_dir, inst->algorithm ? inst->algorithm->id : "_",
		stem);
	rc = dir ? hb_mkdir_p(dir) : hb_error_set("out of memory");
	if (rc == 0)
		rc = S_folder_files(&files, inst->dir, 1, 1);
	for (i = 0; i < files.n && rc == 0; i++) {
		const char *base = S_base(files.v[i]);
		char *text = NULL, *dst;
		size_t tlen = 0;
		hb_buf buf;
		if ((rc = hb_file_read_raw(&buf, files.v[i])) != 0)
			break;
		if (base[strlen(base) - 1] == 'h')
			rc = hb_define_rewrite(&text, &tlen, NULL, NULL, (char *)buf.data, buf.len, base,
				inst->defines, inst->name);
		dst = hb_path_join(dir, base);
		if (rc == 0)
			rc = dst ? S_write_if_changed(dst, text ? text : (char *)buf.data,
				text ? tlen : buf.len) : hb_error_set("out of memory");
		free(dst);
		free(text);
		hb_buf_free(&buf);
	}
	/* a file the folder no longer has goes too (another build's temporary files stay) */
	if (rc == 0 && (d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			size_t n = strlen(de->d_name);
			int keep = de->d_name[0] == '.' || n < 3 || de->d_name[n - 2] != '.' ||
				(de->d_name[n - 1] != 'c' && de->d_name[n - 1] != 'h');
			for (i = 0; i < files.n && !keep; i++)
				keep = strcmp(S_base(files.v[i]), de->d_name) == 0;
			if (!keep) {
				char *stale = hb_path_join(dir, de->d_name);
				if (stale && hb_is_file(stale))
					unlink(stale);
				free(stale);
			}
		}
		closedir(d);
	}
	hb_strv_free(hb_strlist_take(&files));
	free(stem);
	if (rc != 0) {
		free(dir);
		return hb_error_prefix("%s (%s): ", inst->name, inst->impl);
	}
	*out_dir = dir;
	return 0;
}
