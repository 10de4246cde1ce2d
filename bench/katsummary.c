/* katsummary.c — the KAT evidence of a campaign: each library's check (summary and log), the
 * algorithm's kat.sha256 of the submitted files, and its catalog entry. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hbcampaign.h"

/* ---- catalog entries ---- */

int hb_run_catalog_entry(const hb_run *r, const hb_algorithm *alg)
{
	static const char *keep[] = { "id", "name", "category", "function", "parameter_sets",
		"links", "supercop", NULL };
	json_error_t jerr;
	json_t *src = json_loads(alg->json_text, 0, &jerr), *dst = json_object();
	char *dir = hb_path_join(r->o->data_dir, "algorithms"), *path;
	int i, rc;

	if (!src) {
		json_decref(dst);
		free(dir);
		return hb_error_set("%s:%d: %s", alg->json_path, jerr.line, jerr.text);
	}
	for (i = 0; keep[i]; i++) {
		json_t *v = json_object_get(src, keep[i]);
		if (v)
			json_object_set(dst, keep[i], v);
	}
	if (!json_object_get(dst, "parameter_sets")) {
		json_t *sets = json_array();
		size_t k;
		for (k = 0; k < alg->ninstances; k++)
			if (k == 0 || strcmp(alg->instances[k].name, alg->instances[k - 1].name) != 0)
				json_array_append_new(sets, json_string(alg->instances[k].name));
		json_object_set_new(dst, "parameter_sets", sets);
	}
	path = hb_sprintf("%s/%s.json", dir, alg->id);
	rc = hb_mkdir_p(dir);
	if (rc == 0)
		rc = hb_json_write(path, dst);
	json_decref(src);
	json_decref(dst);
	free(dir);
	free(path);
	return rc;
}

json_t *hb_run_kat_files_json(const hb_kat_report *rep)
{
	json_t *files = json_array();
	int s;
	for (s = 0; s < HB_KAT_NSETS; s++) {
		const hb_kat_file_result *f = &rep->files[s];
		json_t *fj;
		if (!(rep->mask & (1u << s)))
			continue;
		fj = json_object();
		json_object_set_new(fj, "name", json_string(f->name));
		json_object_set_new(fj, "sha256", f->sha256[0] ? json_string(f->sha256) : json_null());
		json_object_set_new(fj, "expected_sha256", f->expected_sha256[0] ?
			json_string(f->expected_sha256) : json_null());
		json_object_set_new(fj, "entries", json_integer((json_int_t)f->entries));
		json_object_set_new(fj, "result", json_string(f->result));
		json_object_set_new(fj, "detail", hb_json_str_or_null(f->detail));
		json_array_append_new(files, fj);
	}
	return files;
}

/* The summary of an earlier run is kept when it checked the same library and sets. */
static json_t *S_kat_reusable(const char *path, const hb_build_result *b, unsigned mask)
{
	json_t *j = json_load_file(path, 0, NULL), *lib, *m;
	if (!j)
		return NULL;
	lib = json_object_get(j, "library_sha256");
	m = json_object_get(j, "sets_mask");
	if (json_is_string(lib) && strcmp(json_string_value(lib), b->library_sha256) == 0 &&
		json_is_integer(m) && (unsigned)json_integer_value(m) == mask &&
		json_is_string(json_object_get(j, "result")))
		return j;
	json_decref(j);
	return NULL;
}

const char *hb_run_kat_result(const char *result)
{
	static const char *known[] = { "PASS", "FAIL", "UNVERIFIED" };
	size_t i;
	for (i = 0; result && i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(result, known[i]) == 0)
			return known[i];
	return "ERROR";
}

/* Check one library; returns the result ("PASS", "FAIL", "ERROR"), borrowed from static text. */
const char *hb_run_kat(hb_run *r, const hb_instance *inst, const hb_build_result *b,
	const char *build_error)
{
	char *dir = hb_sprintf("%s/kat/%s", r->sysdir, inst->algorithm->id);
	char *stem = hb_instance_stem(inst);
	char *json_path = hb_sprintf("%s/%s.json", dir, stem), *log_path = hb_sprintf("%s/%s.log", dir, stem);
	char *work = hb_sprintf("%s/kat/%s/%s/%s", r->o->work, r->o->system, inst->algorithm->id, stem);
	unsigned mask = r->o->kat_sets ? r->o->kat_sets : (1u << HB_KAT_2_12) | (1u << HB_KAT_2_23);
	const char *result = "ERROR";
	char *logtext = NULL;
	size_t loglen = 0;
	FILE *log;
	json_t *j, *files, *declared;
	hb_kat_report rep;
	size_t i;

	memset(&rep, 0, sizeof(rep));
	hb_mkdir_p(dir);
	if (b && (j = S_kat_reusable(json_path, b, mask)) != NULL) {
		const char *res = json_string_value(json_object_get(j, "result"));
		result = hb_run_kat_result(res);
		json_decref(j);
		goto out;
	}
	log = open_memstream(&logtext, &loglen);
	fprintf(log, "hashbench %s (git %s) KAT check of %s (%s), algorithm %s\n", HB_VERSION,
		HB_GIT_COMMIT, inst->name, inst->impl, inst->algorithm->id);
	fprintf(log, "instance folder: %s\n", inst->dir);
	for (i = 0; inst->defines && inst->defines[i]; i++)
		fprintf(log, "declared in algorithm.json: %s\n", inst->defines[i]);
	for (i = 0; inst->rewrites && inst->rewrites[i]; i++)
		fprintf(log, "rewritten in a private copy: %s\n", inst->rewrites[i]);
	for (i = 0; inst->define_flags && inst->define_flags[i]; i++)
		fprintf(log, "passed to the compiler: %s\n", inst->define_flags[i]);
	j = json_object();
	json_object_set_new(j, "schema", json_string("hashbench.kat/1"));
	json_object_set_new(j, "instance", json_string(inst->name));
	json_object_set_new(j, "implementation", json_string(inst->impl));
	if (b) {
		fprintf(log, "build: %s\n", b->command);
		fprintf(log, "library sha256: %s\n", b->library_sha256);
		if (b->log && *b->log)
			fprintf(log, "compiler output:\n%s", b->log);
		json_object_set_new(j, "build_flags", json_string(hb_run_flags_label(inst)));
		json_object_set_new(j, "cflags", json_string(b->cflags));
		json_object_set_new(j, "library_sha256", json_string(b->library_sha256));
		fflush(log);
		if (hb_kat_check(&rep, inst, b->library, mask, work, r->o->time_limit_s, log) != 0) {
			rep.result = "ERROR";
			rep.detail = hb_strdup(hb_error_last());
		}
	} else {
		fprintf(log, "build failed:\n%s\n", build_error);
		json_object_set_new(j, "build_flags", json_string("guide"));
		json_object_set_new(j, "cflags", json_null());
		json_object_set_new(j, "library_sha256", json_null());
		rep.result = "ERROR";
		rep.detail = hb_sprintf("the build failed: %s", build_error);
	}
	fclose(log);
	files = hb_run_kat_files_json(&rep);
	json_object_set_new(j, "files", files);
	if ((declared = hb_run_declared_json(inst)) != NULL)
		json_object_set_new(j, "declared", declared);
	json_object_set_new(j, "sets_mask", json_integer(mask));
	json_object_set_new(j, "scope", json_string(inst->kat_byte_aligned ? "byte-aligned" : "all"));
	json_object_set_new(j, "result", json_string(rep.result));
	json_object_set_new(j, "detail", hb_json_str_or_null(rep.detail));
	result = hb_run_kat_result(rep.result);
	/* log first: a summary never points at a log that is not there */
	if (hb_file_write_atomic(log_path, logtext, loglen) != 0 || hb_json_write(json_path, j) != 0)
		hb_note(r->o->progress, r->tty, "%s", hb_error_last());
	json_decref(j);
	free(logtext);
out:
	hb_kat_report_clear(&rep);
	free(dir);
	free(stem);
	free(json_path);
	free(log_path);
	free(work);
	return result;
}

/* kat/<id>/kat.sha256: the submitted KAT files of the algorithm, sha256sum format. */
int hb_run_kat_manifest(const hb_run *r, const hb_algorithm *alg)
{
	char *dir = hb_sprintf("%s/kat/%s", r->sysdir, alg->id), *path = hb_path_join(dir, "kat.sha256");
	char *text = NULL, **seen = calloc(alg->ninstances * HB_KAT_NSETS + 1, sizeof(char *));
	size_t len = 0, nseen = 0, k, i;
	FILE *f = open_memstream(&text, &len);
	int s, rc;

	for (k = 0; k < alg->ninstances; k++) {
		const hb_instance *inst = &alg->instances[k];
		for (s = 0; s < HB_KAT_NSETS; s++) {
			const char *src = inst->kat_files[s] ? inst->kat_files[s] : inst->kat_manifest_file[s];
			char hex[65];
			const char *base;
			int dup = 0;
			if (!src)
				continue;
			for (i = 0; i < nseen; i++)
				if (strcmp(seen[i], src) == 0 && inst->kat_files[s])
					dup = 1;
			if (dup)
				continue;
			if (inst->kat_files[s]) {
				seen[nseen++] = inst->kat_files[s];
				if (hb_sha256_file(hex, inst->kat_files[s]) != 0)
					continue;
				base = strrchr(inst->kat_files[s], '/');
				fprintf(f, "%s  %s\n", hex, base ? base + 1 : inst->kat_files[s]);
			} else {
				fprintf(f, "%s  KAT_%s_%s.txt\n", inst->kat_manifest[s], hb_kat_set_name(s),
					inst->name);
			}
		}
	}
	fclose(f);
	rc = hb_mkdir_p(dir);
	if (rc == 0)
		rc = hb_file_write_atomic(path, text, len);
	free(text);
	free(seen);
	free(dir);
	free(path);
	return rc;
}
