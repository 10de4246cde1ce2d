/* evidence_algorithm.c — the evidence of one algorithm on one system, read for its page: the
 * records and KAT summaries, every file checked against SHA256SUMS, and the files SHA256SUMS lists
 * that are missing. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "evidence.h"

/* ---- one algorithm on one system ---- */

static int S_record(hg_record *r, const char *file, json_t *j, const hg_system *s, const char *id)
{
	json_t *trials, *t, *res, *build;
	char *sysname = NULL, *alg = NULL;
	long long bytes;
	size_t i;
	int rc = -1;

	r->cycles_per_tick = s->cycles_per_tick;
	if (hg_ev_schema(file, j, "hashbench.record/1") != 0 ||
		hg_ev_str(&sysname, file, j, "", "system", 1) || hg_ev_str(&alg, file, j, "", "algorithm", 1))
		goto out;
	if (strcmp(sysname, s->name) != 0) {
		hg_error_set("%s: system: \"%s\" contradicts the path (system %s)", file, sysname,
			s->name);
		goto out;
	}
	if (strcmp(alg, id) != 0) {
		hg_error_set("%s: algorithm: \"%s\" contradicts the path (algorithm %s)", file, alg,
			id);
		goto out;
	}
	if (hg_ev_str(&r->instance, file, j, "", "instance", 1) ||
		hg_ev_str(&r->implementation, file, j, "", "implementation", 1) ||
		hg_ev_str(&r->operation, file, j, "", "operation", 1) ||
		hg_ev_int(&bytes, file, j, "", "message_bytes", 1) ||
		hg_ev_str(&r->status, file, j, "", "status", 0) ||
		hg_ev_str(&r->detail, file, j, "", "detail", 0) ||
		hg_ev_str(&r->kat, file, j, "", "kat", 0) ||
		hg_ev_int(&r->output_bytes, file, j, "", "output_bytes", 0))
		goto out;
	if (bytes == 0) {
		hg_ev_bad(file, "message_bytes", "0-byte records are refused (no cycles per byte)");
		goto out;
	}
	r->message_bytes = (unsigned long long)bytes;
	if (!r->status)
		r->status = hg_xstrdup("ok");
	build = json_object_get(j, "build");
	if (!json_is_object(build)) {
		hg_ev_bad(file, "build", build ? "expected an object" : "missing");
		goto out;
	}
	if (hg_ev_str(&r->flags, file, build, "build.", "flags", 1))
		goto out;
	trials = json_object_get(j, "trials");
	if (!json_is_array(trials)) {
		hg_ev_bad(file, "trials", trials ? "expected an array" : "missing");
		goto out;
	}
	if (strcmp(r->status, "ok") == 0 && json_array_size(trials) == 0) {
		hg_ev_bad(file, "trials", "a record with status ok has no rounds");
		goto out;
	}
	r->ntrials = json_array_size(trials);
	r->trials = calloc(r->ntrials + 1, sizeof(hg_trial));
	json_array_foreach(trials, i, t) {
		char prefix[64];
		long long it, cy, ns;
		snprintf(prefix, sizeof(prefix), "trials[%zu].", i);
		if (!json_is_object(t)) {
			snprintf(prefix, sizeof(prefix), "trials[%zu]", i);
			hg_ev_bad(file, prefix, "expected an object");
			goto out;
		}
		if (hg_ev_int(&it, file, t, prefix, "iterations", 1) ||
			hg_ev_int(&cy, file, t, prefix, "cycles", 1) ||
			hg_ev_int(&ns, file, t, prefix, "ns", 1))
			goto out;
		if (it == 0) {
			snprintf(prefix, sizeof(prefix), "trials[%zu].iterations", i);
			hg_ev_bad(file, prefix, "a round without calls");
			goto out;
		}
		r->trials[i].iterations = (unsigned long long)it;
		r->trials[i].cycles = (unsigned long long)cy;
		r->trials[i].ns = (unsigned long long)ns;
	}
	{
		json_t *smp = json_object_get(j, "samples"), *v, *dist, *ret;
		if (smp && !json_is_null(smp)) {
			if (!json_is_array(smp)) {
				hg_ev_bad(file, "samples", "expected an array of integers");
				goto out;
			}
			r->nsamples = json_array_size(smp);
			r->samples = calloc(r->nsamples + 1, sizeof(*r->samples));
			json_array_foreach(smp, i, v) {
				if (!json_is_integer(v) || json_integer_value(v) < 0) {
					char p[64];
					snprintf(p, sizeof(p), "samples[%zu]", i);
					hg_ev_bad(file, p, "expected an integer of 0 or more");
					goto out;
				}
				r->samples[i] = (unsigned long long)json_integer_value(v);
			}
		}
		dist = json_object_get(j, "disturbed");
		if (dist && !json_is_null(dist) && !json_is_boolean(dist)) {
			hg_ev_bad(file, "disturbed", "expected true or false");
			goto out;
		}
		r->disturbed = json_is_true(dist);
		ret = json_object_get(j, "retries");
		if (ret && !json_is_null(ret) && !json_is_array(ret)) {
			hg_ev_bad(file, "retries", "expected an array");
			goto out;
		}
		r->nretries = ret ? json_array_size(ret) : 0;
	}
	res = json_object_get(j, "resources");
	if (!json_is_object(res)) {
		hg_ev_bad(file, "resources", res ? "expected an object" : "missing");
		goto out;
	}
	if (hg_ev_int(&r->static_bytes, file, res, "resources.", "static_bytes", 0) ||
		hg_ev_int(&r->baseline_rss_kib, file, res, "resources.", "baseline_rss_kib", 0) ||
		hg_ev_int(&r->peak_rss_kib, file, res, "resources.", "peak_rss_kib", 0) ||
		hg_memory_read(r, res, j, file) != 0 || hg_import_record(r, j, file) != 0 ||
		hg_headline_read(r, j, file) != 0 || hg_sc_record_read(r, j, file) != 0)
		goto out;
	rc = 0;
out:
	free(sysname);
	free(alg);
	return rc;
}

static int S_kat(hg_kat *k, const char *file, json_t *j)
{
	if (hg_ev_schema(file, j, "hashbench.kat/1") ||
		hg_ev_str(&k->instance, file, j, "", "instance", 1) ||
		hg_ev_str(&k->implementation, file, j, "", "implementation", 1) ||
		hg_ev_str(&k->build_flags, file, j, "", "build_flags", 1) ||
		hg_ev_str(&k->result, file, j, "", "result", 1) ||
		hg_ev_str(&k->detail, file, j, "", "detail", 0))
		return -1;
	if (strcmp(k->result, "PASS") && strcmp(k->result, "FAIL") && strcmp(k->result, "ERROR") &&
		strcmp(k->result, "UNVERIFIED"))
		return hg_ev_bad(file, "result", "expected PASS, FAIL, UNVERIFIED or ERROR");
	{
		char *scope = NULL;
		if (hg_ev_str(&scope, file, j, "", "scope", 0) != 0)
			return -1;
		k->byte_aligned = scope && strcmp(scope, "byte-aligned") == 0;
		free(scope);
	}
	return hg_import_kat(k, j, file) != 0 ? -1 : hg_sc_kat_read(k, j, file);
}

static void S_record_clear(hg_record *r)
{
	free(r->file);
	free(r->instance);
	free(r->implementation);
	free(r->operation);
	free(r->status);
	free(r->detail);
	free(r->kat);
	free(r->flags);
	free(r->trials);
	free(r->samples);
	free(r->original);
	free(r->sc_path);
	free(r->sc_compiler);
	hg_memory_clear(r);
	hg_headline_clear(r);
}

void hg_sysalg_clear(hg_sysalg *sa)
{
	size_t i;
	for (i = 0; i < sa->nrecords; i++)
		S_record_clear(&sa->records[i]);
	free(sa->records);
	for (i = 0; i < sa->nkats; i++) {
		free(sa->kats[i].file);
		free(sa->kats[i].instance);
		free(sa->kats[i].implementation);
		free(sa->kats[i].build_flags);
		free(sa->kats[i].result);
		free(sa->kats[i].detail);
		free(sa->kats[i].import_note);
		hg_sc_impl_free(sa->kats[i].supercop);
	}
	free(sa->kats);
	for (i = 0; i < sa->nfiles; i++)
		free(sa->files[i].file);
	free(sa->files);
	free(sa->manifest);
	hg_sums_free(sa->sums, sa->nsums);
	if (sa->dir_fd[0] > 0)
		close(sa->dir_fd[0]);
	if (sa->dir_fd[1] > 0)
		close(sa->dir_fd[1]);
	if (sa->dir_fd[2] > 0)
		close(sa->dir_fd[2]);
	memset(sa, 0, sizeof(*sa));
	sa->dir_fd[0] = sa->dir_fd[1] = sa->dir_fd[2] = -1;
}

static int S_load_folder(hg_sysalg *sa, const hg_data *d, const hg_system *s, const char *id,
	const char *kind, int slot)
{
	char *dir = hg_xprintf("%s/%s/%s", s->dir, kind, id), **names = NULL;
	size_t n = 0, i;
	int rc = hg_ev_list(&names, &n, dir, 'f', d->root_real), dfd = -1;

	if (rc == 0 && n) {
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			rc = hg_error_set("%s: %s", dir, strerror(errno));
	}
	for (i = 0; i < n && rc == 0; i++) {
		char *rel = hg_xprintf("%s/%s/%s", kind, id, names[i]);
		char *full = hg_xprintf("%s/%s", dir, names[i]), *text = NULL;
		size_t len = 0, nl = strlen(names[i]);
		hg_evfile *f;

		struct stat st;
		if (hg_ev_read_at(&text, &len, dfd, names[i], full, &st) != 0) {
			free(rel);
			free(full);
			rc = -1;
			break;
		}
		if ((sa->nfiles & (sa->nfiles - 1)) == 0)
			sa->files = realloc(sa->files, (sa->nfiles ? 2 * sa->nfiles : 1) * sizeof(hg_evfile));
		f = &sa->files[sa->nfiles++];
		memset(f, 0, sizeof(*f));
		f->file = rel;
		f->ino = (unsigned long long)st.st_ino;
		f->size = (unsigned long long)st.st_size;
		f->mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
		hg_sha256_hex(f->sha256, text, len);
		hg_evfile_check(f, sa->sums, sa->nsums);
		if (slot < 2 && nl > 5 && strcmp(names[i] + nl - 5, ".json") == 0) {
			json_t *j = hg_ev_parse(full, text, len);
			if (!j) {
				rc = -1;
			} else if (strcmp(kind, "records") == 0) {
				hg_record *r;
				if ((sa->nrecords & (sa->nrecords - 1)) == 0)
					sa->records = realloc(sa->records,
						(sa->nrecords ? 2 * sa->nrecords : 1) * sizeof(hg_record));
				r = &sa->records[sa->nrecords++];
				memset(r, 0, sizeof(*r));
				r->file = hg_xstrdup(rel);
				rc = S_record(r, full, j, s, id);
			} else {
				hg_kat *k;
				if ((sa->nkats & (sa->nkats - 1)) == 0)
					sa->kats = realloc(sa->kats, (sa->nkats ? 2 * sa->nkats : 1) * sizeof(hg_kat));
				k = &sa->kats[sa->nkats++];
				memset(k, 0, sizeof(*k));
				k->file = hg_xstrdup(rel);
				rc = S_kat(k, full, j);
			}
			json_decref(j);
		} else if (slot < 2 && strcmp(names[i], "kat.sha256") == 0) {
			sa->manifest = hg_xstrdup(rel);
		}
		free(full);
	}
	/* kept open: the site links its copies through it */
	sa->dir_fd[slot] = dfd;
	hg_strv_free(names);
	free(dir);
	return rc;
}

static int S_cmp_file(const void *a, const void *b)
{
	return strcmp(((const hg_evfile *)a)->file, ((const hg_evfile *)b)->file);
}
void hg_evidence_missing(hg_evfile **files, size_t *n, const hg_system *s, const char *id,
	const hg_sum *v, size_t nv)
{
	const char *kinds[3];
	size_t i, present, t, nkinds = hg_evidence_kinds(s, kinds);

	/* sorted first (a scan's files nearly always are), so that each listed file is looked up */
	for (i = 1; i < *n && strcmp((*files)[i - 1].file, (*files)[i].file) <= 0; i++)
		;
	if (i < *n)
		qsort(*files, *n, sizeof(hg_evfile), S_cmp_file);
	present = *n;
	for (t = 0; t < nkinds; t++) {
		char *prefix = hg_xprintf("%s/%s/", kinds[t], id);
		size_t plen = strlen(prefix);
		for (i = hg_sums_lower(v, nv, prefix); i < nv && strncmp(v[i].path, prefix, plen) == 0;
			i++) {
			hg_evfile *f, key;
			key.file = v[i].path;
			if (present && bsearch(&key, *files, present, sizeof(hg_evfile), S_cmp_file))
				continue;
			*files = realloc(*files, (*n + 1) * sizeof(hg_evfile));
			f = &(*files)[(*n)++];
			memset(f, 0, sizeof(*f));
			f->file = hg_xstrdup(v[i].path);
			memcpy(f->listed, v[i].sha256, 65);
			f->state = HG_SUM_MISSING;
		}
		free(prefix);
	}
	if (*n != present)
		qsort(*files, *n, sizeof(hg_evfile), S_cmp_file);
}

int hg_sums_of(hg_sum **out, size_t *n, const hg_system *s, const char *id)
{
	const char *kinds[3];
	size_t t, nkinds = hg_evidence_kinds(s, kinds);

	*out = NULL;
	*n = 0;
	for (t = 0; t < nkinds; t++) {
		char *prefix = hg_xprintf("%s/%s/", kinds[t], id);
		hg_sum *v;
		size_t nv;
		int rc = hg_sums_under(&v, &nv, s, prefix);
		free(prefix);
		if (rc != 0) {
			hg_sums_free(*out, *n);
			*out = NULL;
			*n = 0;
			return -1;
		}
		if (nv) {
			*out = realloc(*out, (*n + nv) * sizeof(hg_sum));
			if (!*out) {
				fprintf(stderr, "hashgen: out of memory\n");
				exit(1);
			}
			memcpy(*out + *n, v, nv * sizeof(hg_sum));
			*n += nv;
		}
		free(v);
	}
	hg_sums_sort(*out, *n);
	return 0;
}

int hg_sysalg_load(hg_sysalg *out, const hg_data *d, const hg_system *s, const char *id)
{
	memset(out, 0, sizeof(*out));
	out->dir_fd[0] = out->dir_fd[1] = out->dir_fd[2] = -1;
	if (hg_sums_of(&out->sums, &out->nsums, s, id) != 0 ||
		S_load_folder(out, d, s, id, "kat", 0) != 0 ||
		S_load_folder(out, d, s, id, "records", 1) != 0 ||
		(s->imported && S_load_folder(out, d, s, id, HG_ORIGINALS, 2) != 0)) {
		hg_sysalg_clear(out);
		return -1;
	}
	hg_evidence_missing(&out->files, &out->nfiles, s, id, out->sums, out->nsums);
	return 0;
}

void hg_kat_tally(long long out[HG_KAT_TALLY], const hg_kat *kats, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		const char *r = kats[i].result ? kats[i].result : "";
		if (strcmp(r, "PASS") == 0)
			out[HG_KAT_PASSED]++;
		else if (strcmp(r, "UNVERIFIED") == 0)
			out[HG_KAT_UNVERIFIED]++;
		else if (strcmp(r, "SKIPPED") != 0)
			out[HG_KAT_FAILED]++;
	}
}
