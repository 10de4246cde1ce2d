/* evidence_supercop.c — what SUPERCOP's crypto_hash evidence adds to the contract: the primitive
 * (version, designers, implementations not run here) in the catalog, the checksums and compiler
 * settings of a KAT summary, the path and compiler of a record. All of it optional. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "evidence.h"

/* The "supercop" member of j: NULL when absent or null, else it must be an object. */
static int S_object(json_t **out, json_t *j, const char *file)
{
	json_t *v = json_object_get(j, "supercop");
	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_object(v))
		return hg_ev_bad(file, "supercop", "expected an object");
	*out = v;
	return 0;
}

/* The array j[key] (absent or null: nothing), each element an object read by read into an item
 * of size bytes of *items; path names the array in messages ("supercop.compilers"). */
typedef int (*S_read_fn)(void *item, json_t *v, const char *file, const char *prefix);

static int S_each(void **items, size_t *n, size_t size, json_t *j, const char *key,
	const char *path, const char *file, S_read_fn read)
{
	json_t *list = json_object_get(j, key), *v;
	size_t i;

	if (!list || json_is_null(list))
		return 0;
	if (!json_is_array(list))
		return hg_ev_bad(file, path, "expected an array");
	*items = calloc(json_array_size(list) + 1, size);
	json_array_foreach(list, i, v) {
		char prefix[96];
		snprintf(prefix, sizeof(prefix), "%s[%zu]", path, i);
		(*n)++;
		if (!json_is_object(v))
			return hg_ev_bad(file, prefix, "expected an object");
		strcat(prefix, ".");
		if (read((char *)*items + i * size, v, file, prefix) != 0)
			return -1;
	}
	return 0;
}

/* A result field of an element: PASS, FAIL or ERROR, UNVERIFIED (the tree has no checksum to
 * compare with), or SKIPPED (checksumbig when checksumsmall did not pass, as SUPERCOP does not
 * run it then). */
static int S_result(char **out, json_t *v, const char *file, const char *prefix)
{
	char path[128];
	if (hg_ev_str(out, file, v, prefix, "result", 1) != 0)
		return -1;
	snprintf(path, sizeof(path), "%sresult", prefix);
	if (strcmp(*out, "PASS") && strcmp(*out, "FAIL") && strcmp(*out, "ERROR") &&
		strcmp(*out, "SKIPPED") && strcmp(*out, "UNVERIFIED"))
		return hg_ev_bad(file, path, "expected PASS, FAIL, ERROR, UNVERIFIED or SKIPPED");
	return 0;
}

/* ---- the catalog entry ---- */

void hg_sc_primitive_free(hg_sc_primitive *p)
{
	size_t i;
	if (!p)
		return;
	free(p->version);
	free(p->operation);
	free(p->primitive);
	free(p->designers);
	free(p->description);
	for (i = 0; i < p->nnot_run; i++) {
		free(p->not_run[i].implementation);
		free(p->not_run[i].path);
		free(p->not_run[i].reason);
	}
	free(p->not_run);
	free(p);
}

static int S_not_run(void *item, json_t *v, const char *file, const char *prefix)
{
	hg_sc_notrun *n = item;
	return hg_ev_str(&n->implementation, file, v, prefix, "implementation", 1) ||
		hg_ev_str(&n->path, file, v, prefix, "path", 0) ||
		hg_ev_str(&n->reason, file, v, prefix, "reason", 1) ? -1 : 0;
}

int hg_sc_entry_read(hg_entry *e, json_t *j, const char *file)
{
	json_t *sc;
	hg_sc_primitive *p;

	if (S_object(&sc, j, file) != 0)
		return -1;
	if (!sc)
		return 0;
	p = e->supercop = calloc(1, sizeof(*p));
	if (hg_ev_str(&p->version, file, sc, "supercop.", "version", 0) ||
		hg_ev_str(&p->operation, file, sc, "supercop.", "operation", 0) ||
		hg_ev_str(&p->primitive, file, sc, "supercop.", "primitive", 0) ||
		hg_ev_str(&p->designers, file, sc, "supercop.", "designers", 0) ||
		hg_ev_str(&p->description, file, sc, "supercop.", "description", 0))
		return -1;
	return S_each((void **)&p->not_run, &p->nnot_run, sizeof(hg_sc_notrun), sc, "not_run",
		"supercop.not_run", file, S_not_run);
}

/* ---- the KAT summary ---- */

void hg_sc_impl_free(hg_sc_impl *m)
{
	size_t i;
	if (!m)
		return;
	free(m->version);
	free(m->operation);
	free(m->primitive);
	free(m->path);
	free(m->implementors);
	free(m->sources_sha256);
	free(m->compiler);
	for (i = 0; i < m->nsettings; i++) {
		hg_sc_setting *t = &m->settings[i];
		free(t->compiler);
		free(t->result);
		free(t->detail);
		free(t->checksumsmall);
		free(t->checksumbig);
	}
	free(m->settings);
	for (i = 0; i < m->nfiles; i++) {
		hg_katfile *f = &m->files[i];
		free(f->name);
		free(f->sha256);
		free(f->expected);
		free(f->result);
		free(f->detail);
	}
	free(m->files);
	free(m);
}

/* A setting's "in_turns" (the line timed in turns with the fastest by try's median), when
 * present: ratio, low and high above 0 in that order, within_noise_of_kept a boolean. */
static int S_in_turns(hg_sc_setting *t, json_t *v, const char *file, const char *prefix)
{
	json_t *it = json_object_get(v, "in_turns");
	json_t *r = json_object_get(it, "ratio"), *lo = json_object_get(it, "low");
	json_t *hi = json_object_get(it, "high"), *wn = json_object_get(it, "within_noise_of_kept");
	char path[256];

	t->turns_ratio = t->turns_low = t->turns_high = -1;
	t->within_noise = 0;
	if (!it)
		return 0;
	snprintf(path, sizeof(path), "%sin_turns", prefix);
	if (!json_is_object(it) || !json_is_number(r) || !json_is_number(lo) || !json_is_number(hi) ||
		!json_is_boolean(wn) || !(json_number_value(lo) > 0) ||
		json_number_value(lo) > json_number_value(r) ||
		json_number_value(r) > json_number_value(hi))
		return hg_ev_bad(file, path, "expected {ratio, low, high} with 0 < low <= ratio <= high "
			"and within_noise_of_kept true or false");
	t->turns_ratio = json_number_value(r);
	t->turns_low = json_number_value(lo);
	t->turns_high = json_number_value(hi);
	t->within_noise = json_is_true(wn);
	return 0;
}

static int S_setting(void *item, json_t *v, const char *file, const char *prefix)
{
	hg_sc_setting *t = item;
	return hg_ev_str(&t->compiler, file, v, prefix, "compiler", 1) ||
		S_in_turns(t, v, file, prefix) ||
		S_result(&t->result, v, file, prefix) ||
		hg_ev_str(&t->detail, file, v, prefix, "detail", 0) ||
		hg_ev_str(&t->checksumsmall, file, v, prefix, "checksumsmall", 0) ||
		hg_ev_str(&t->checksumbig, file, v, prefix, "checksumbig", 0) ||
		hg_ev_int(&t->cycles, file, v, prefix, "cycles", 0) ? -1 : 0;
}

static int S_file(void *item, json_t *v, const char *file, const char *prefix)
{
	hg_katfile *f = item;
	return hg_ev_str(&f->name, file, v, prefix, "name", 1) ||
		hg_ev_str(&f->sha256, file, v, prefix, "sha256", 0) ||
		hg_ev_str(&f->expected, file, v, prefix, "expected_sha256", 0) ||
		S_result(&f->result, v, file, prefix) ||
		hg_ev_str(&f->detail, file, v, prefix, "detail", 0) ||
		hg_ev_int(&f->entries, file, v, prefix, "entries", 0) ? -1 : 0;
}

int hg_sc_kat_read(hg_kat *k, json_t *j, const char *file)
{
	json_t *sc;
	hg_sc_impl *m;

	if (S_object(&sc, j, file) != 0)
		return -1;
	if (!sc)
		return 0;
	m = k->supercop = calloc(1, sizeof(*m));
	if (hg_ev_str(&m->version, file, sc, "supercop.", "version", 0) ||
		hg_ev_str(&m->operation, file, sc, "supercop.", "operation", 0) ||
		hg_ev_str(&m->primitive, file, sc, "supercop.", "primitive", 0) ||
		hg_ev_str(&m->path, file, sc, "supercop.", "path", 0) ||
		hg_ev_str(&m->implementors, file, sc, "supercop.", "implementors", 0) ||
		hg_ev_str(&m->sources_sha256, file, sc, "supercop.", "sources_sha256", 0) ||
		hg_ev_str(&m->compiler, file, sc, "supercop.", "compiler", 0))
		return -1;
	if (S_each((void **)&m->settings, &m->nsettings, sizeof(hg_sc_setting), sc, "compilers",
			"supercop.compilers", file, S_setting) != 0)
		return -1;
	return S_each((void **)&m->files, &m->nfiles, sizeof(hg_katfile), j, "files", "files", file,
		S_file);
}

/* ---- the record ---- */

int hg_sc_record_read(hg_record *r, json_t *j, const char *file)
{
	json_t *sc;

	if (S_object(&sc, j, file) != 0)
		return -1;
	if (!sc)
		return 0;
	if (hg_ev_str(&r->sc_path, file, sc, "supercop.", "path", 0) ||
		hg_ev_str(&r->sc_compiler, file, sc, "supercop.", "compiler", 0))
		return -1;
	if (!r->sc_path)
		r->sc_path = hg_xprintf("crypto_hash/%s/%s", r->instance, r->implementation);
	if (!r->sc_compiler) {
		json_t *build = json_object_get(j, "build");
		if (hg_ev_str(&r->sc_compiler, file, build, "build.", "cflags", 0) != 0)
			return -1;
	}
	return 0;
}
