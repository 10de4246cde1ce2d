/* catalog.c — the catalog of submissions: every algorithm under a folder (algorithm.json), its
 * instances as discovered (submission.c) and as declared (declare.c), and one found by name. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "hbpackage.h"

static char *S_dirname(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? strndup(path, (size_t)(s - path)) : hb_strdup(".");
}

/* Every regular file below dir, sorted; symbolic links to folders are not followed. */
static int S_walk(hb_strlist *out, const char *dir, int depth)
{
	DIR *d;
	struct dirent *de;
	hb_strlist names = { 0 };
	size_t i;
	int rc = 0;

	if (depth > 16)
		return 0;
	d = opendir(dir);
	if (!d)
		return hb_error_set("%s: %s", dir, strerror(errno));
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if ((rc = hb_strlist_add(&names, hb_path_join(dir, de->d_name))) != 0)
			break;
	}
	closedir(d);
	hb_strv_sort(names.v, names.n);
	for (i = 0; i < names.n && rc == 0; i++) {
		struct stat st;
		if (lstat(names.v[i], &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			rc = S_walk(out, names.v[i], depth + 1);
		else if (S_ISREG(st.st_mode) || (S_ISLNK(st.st_mode) && hb_is_file(names.v[i])))
			rc = hb_strlist_add(out, hb_strdup(names.v[i]));
	}
	hb_strv_free(hb_strlist_take(&names));
	return rc;
}

static void S_warn(hb_catalog *cat, char *msg)
{
	hb_strlist l = hb_strlist_of(cat->warnings);
	if (!msg)
		return;
	hb_strlist_add(&l, msg);
	cat->warnings = l.v;
}

static int S_valid_id(const char *s)
{
	size_t i, n = strlen(s);
	if (n == 0 || n > 64)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return 0;
	return s[0] != '.';
}

static int S_cmp_instance(const void *a, const void *b)
{
	const hb_instance *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	/* the reference implementation first, the others by name */
	c = (strcmp(y->impl, "reference") == 0) - (strcmp(x->impl, "reference") == 0);
	return c ? c : strcmp(x->impl, y->impl);
}

static int S_load_algorithm(hb_catalog *cat, hb_algorithm *alg, const char *dir)
{
	json_error_t jerr;
	json_t *root = NULL, *v, *build, *include;
	hb_strlist files = { 0 };
	char **filev = NULL;
	hb_buf text;
	size_t i;
	int rc = 0, has_impl;

	memset(alg, 0, sizeof(*alg));
	alg->dir = hb_strdup(dir);
	alg->json_path = hb_path_join(dir, "algorithm.json");
	if (hb_file_read(&text, alg->json_path) != 0)
		return HB_ERROR;
	alg->json_text = (char *)text.data;
	root = json_loadb(alg->json_text, text.len, 0, &jerr);
	if (!root)
		return hb_error_set("%s:%d: %s", alg->json_path, jerr.line, jerr.text);
	if (!json_is_object(root)) {
		rc = hb_error_set("%s: expected a JSON object", alg->json_path);
		goto out;
	}
	v = json_object_get(root, "id");
	if (!json_is_string(v) || !S_valid_id(json_string_value(v))) {
		rc = hb_error_set("%s: id: expected a string of letters, digits, '-', '_' or '.'",
			alg->json_path);
		goto out;
	}
	alg->id = hb_strdup(json_string_value(v));
	v = json_object_get(root, "name");
	if (!json_is_string(v)) {
		rc = hb_error_set("%s: name: expected a string", alg->json_path);
		goto out;
	}
	alg->name = hb_strdup(json_string_value(v));
	build = json_object_get(root, "build");
	if (build && !json_is_object(build)) {
		rc = hb_error_set("%s: build: expected an object", alg->json_path);
		goto out;
	}
	include = json_object_get(root, "include");
	if (include && !json_is_array(include)) {
		rc = hb_error_set("%s: include: expected an array of folders", alg->json_path);
		goto out;
	}
	if ((rc = S_walk(&files, dir, 0)) != 0)
		goto out;
	filev = hb_strlist_take(&files);
	has_impl = hb_layout_has_implementations(dir, filev);
	for (i = 0; filev[i]; i++) {
		hb_instance *inst, *grown;
		size_t n = strlen(filev[i]), k;
		int hr, dup = 0, bits;
		char *why, *name;

		if (n < 3 || strcmp(filev[i] + n - 2, ".h") != 0)
			continue;
		hr = hb_header_read(&name, &bits, filev[i]);
		if (hr > 0 && !hb_layout_counts(dir, filev[i], include, has_impl, &why)) {
			S_warn(cat, hb_sprintf("%s: %s", name, why));
			free(why);
			free(name);
			continue;
		}
		if (hr < 0) {
			S_warn(cat, hb_sprintf("%s (skipped)", hb_error_last()));
			continue;
		}
		if (hr == 0)
			continue;
		grown = realloc(alg->instances, (alg->ninstances + 1) * sizeof(*grown));
		if (!grown) {
			free(name);
			rc = hb_error_set("out of memory");
			goto out;
		}
		alg->instances = grown;
		inst = &alg->instances[alg->ninstances];
		memset(inst, 0, sizeof(*inst));
		inst->name = name;
		inst->digest_bits = bits;
		inst->header = hb_strdup(filev[i]);
		inst->dir = S_dirname(filev[i]);
		inst->impl = hb_impl_from_path(&inst->version_folder, inst->dir);
		for (k = 0; k < alg->ninstances && !dup; k++)
			dup = strcmp(alg->instances[k].name, inst->name) == 0 &&
				strcmp(alg->instances[k].impl, inst->impl) == 0;
		if (dup) {
			S_warn(cat, hb_sprintf("%s: instance %s (%s) is already defined in %s; "
				"this copy is ignored", filev[i], inst->name, inst->impl,
				alg->instances[k - 1].dir));
			hb_instance_clear(inst);
			continue;
		}
		inst->profile = hb_strdup(inst->impl);
		alg->ninstances++;
		if (hb_instance_configure(inst, alg, build, NULL) != 0) {
			rc = HB_ERROR;
			goto out;
		}
		hb_instance_find_kat(inst, filev);
	}
	if ((rc = hb_declare_instances(alg, root, build, filev)) != 0)
		goto out;
	if (alg->ninstances == 0)
		S_warn(cat, hb_sprintf("%s: no header defining ALGORITHM_INSTANCE below %s",
			alg->json_path, dir));
	if (alg->ninstances)
		qsort(alg->instances, alg->ninstances, sizeof(hb_instance), S_cmp_instance);
	for (i = 0; i < alg->ninstances; i++)
		alg->instances[i].algorithm = alg;
out:
	hb_strv_free(filev);
	json_decref(root);
	return rc;
}

static void S_algorithm_clear(hb_algorithm *alg)
{
	size_t i;
	for (i = 0; i < alg->ninstances; i++) {
		hb_supercop_impl_free(alg->instances[i].supercop);
		alg->instances[i].supercop = NULL;
		hb_instance_clear(&alg->instances[i]);
	}
	free(alg->instances);
	free(alg->id);
	free(alg->name);
	free(alg->dir);
	free(alg->json_path);
	free(alg->json_text);
}

void hb_catalog_free(hb_catalog *cat)
{
	size_t i;
	if (!cat)
		return;
	for (i = 0; i < cat->nalgorithms; i++)
		S_algorithm_clear(&cat->algorithms[i]);
	free(cat->algorithms);
	hb_strv_free(cat->warnings);
	free(cat);
}

static int S_cmp_alg(const void *a, const void *b)
{
	return strcmp(((const hb_algorithm *)a)->id, ((const hb_algorithm *)b)->id);
}

static int S_settle(hb_catalog *cat);

int hb_catalog_load(hb_catalog **out, const char *dir)
{
	hb_catalog *cat;
	hb_strlist dirs = { 0 };
	DIR *d;
	struct dirent *de;
	size_t i;
	int rc = 0;

	*out = NULL;
	if (!hb_is_dir(dir))
		return hb_error_set("%s: no such folder of submissions", dir);
	cat = calloc(1, sizeof(*cat));
	if (!cat)
		return hb_error_set("out of memory");
	{
		char *own = hb_path_join(dir, "algorithm.json");
		if (hb_is_file(own))
			rc = hb_strlist_add(&dirs, hb_strdup(dir));
		free(own);
	}
	if (dirs.n == 0) {
		d = opendir(dir);
		if (!d) {
			hb_catalog_free(cat);
			return hb_error_set("%s: %s", dir, strerror(errno));
		}
		while ((de = readdir(d)) != NULL && rc == 0) {
			char *sub, *json;
			if (de->d_name[0] == '.')
				continue;
			sub = hb_path_join(dir, de->d_name);
			json = hb_path_join(sub, "algorithm.json");
			if (hb_is_file(json))
				rc = hb_strlist_add(&dirs, sub);
			else
				free(sub);
			free(json);
		}
		closedir(d);
	}
	if (rc == 0 && dirs.n == 0)
		rc = hb_error_set("%s: no algorithm.json in it or in its sub-folders", dir);
	if (rc == 0) {
		cat->algorithms = calloc(dirs.n, sizeof(hb_algorithm));
		if (!cat->algorithms)
			rc = hb_error_set("out of memory");
	}
	for (i = 0; i < dirs.n && rc == 0; i++) {
		rc = S_load_algorithm(cat, &cat->algorithms[i], dirs.v[i]);
		cat->nalgorithms++;
	}
	hb_strv_free(hb_strlist_take(&dirs));
	if (rc == 0)
		rc = S_settle(cat);
	if (rc != 0) {
		hb_catalog_free(cat);
		return rc;
	}
	*out = cat;
	return 0;
}

int hb_catalog_find(const hb_instance **out, const hb_catalog *cat, const char *spec)
{
	const char *colon = strrchr(spec, ':');
	char *name = colon ? strndup(spec, (size_t)(colon - spec)) : hb_strdup(spec);
	const char *impl = colon ? colon + 1 : "reference";
	size_t i, k;
	int seen_name = 0;

	*out = NULL;
	for (i = 0; i < cat->nalgorithms; i++) {
		for (k = 0; k < cat->algorithms[i].ninstances; k++) {
			const hb_instance *inst = &cat->algorithms[i].instances[k];
			if (strcmp(inst->name, name) != 0)
				continue;
			seen_name = 1;
			if (strcmp(inst->impl, impl) == 0) {
				*out = inst;
				free(name);
				return 0;
			}
		}
	}
	if (seen_name)
		hb_error_set("%s: no implementation '%s' of this instance (see hashbench list)",
			name, impl);
	else
		hb_error_set("%s: unknown instance (see hashbench list)", name);
	free(name);
	return HB_ENOTFOUND;
}

/* The instances' back-pointers after the algorithms moved, and no id twice. */
static int S_settle(hb_catalog *cat)
{
	size_t i, k;
	qsort(cat->algorithms, cat->nalgorithms, sizeof(hb_algorithm), S_cmp_alg);
	for (i = 0; i < cat->nalgorithms; i++)
		for (k = 0; k < cat->algorithms[i].ninstances; k++)
			cat->algorithms[i].instances[k].algorithm = &cat->algorithms[i];
	for (i = 1; i < cat->nalgorithms; i++)
		if (strcmp(cat->algorithms[i - 1].id, cat->algorithms[i].id) == 0)
			return hb_error_set("%s: id \"%s\" is also used by %s",
				cat->algorithms[i].json_path, cat->algorithms[i].id,
				cat->algorithms[i - 1].json_path);
	return 0;
}

/* Append an algorithm (the catalog takes it; its instances get their back-pointers): an error
 * naming both when its id is taken. */
static int S_append(hb_catalog *cat, hb_algorithm *alg)
{
	hb_algorithm *g = realloc(cat->algorithms, (cat->nalgorithms + 1) * sizeof(*g));
	if (!g) {
		S_algorithm_clear(alg);
		free(alg);
		return hb_error_set("out of memory");
	}
	cat->algorithms = g;
	cat->algorithms[cat->nalgorithms++] = *alg;
	free(alg);
	return S_settle(cat);
}

int hb_catalog_open(hb_catalog **out, const char *submissions, const char *supercop)
{
	hb_catalog *cat = NULL;
	*out = NULL;
	if (submissions) {
		if (hb_catalog_load(&cat, submissions) != 0)
			return HB_ERROR;
	} else if (!(cat = calloc(1, sizeof(*cat)))) {
		return hb_error_set("out of memory");
	}
	if (supercop) {
		hb_algorithm **algs = NULL;
		size_t n = 0, i;
		int rc = hb_supercop_load(&algs, &n, &cat->warnings, supercop);
		for (i = 0; i < n; i++)
			if (rc == 0)
				rc = S_append(cat, algs[i]);
			else
				hb_supercop_algorithm_free(algs[i]);
		free(algs);
		if (rc != 0) {
			hb_catalog_free(cat);
			return HB_ERROR;
		}
	}
	*out = cat;
	return 0;
}
