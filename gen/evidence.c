/* evidence.c — reading data/ as untrusted input: the catalog and each system's system.json and
 * SHA256SUMS; every problem is reported with the file and the JSON path of the value. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "evidence.h"

static int S_link(hg_link *out, const char *file, json_t *links, const char *key)
{
	json_t *l = json_object_get(links, key);
	char prefix[64];
	memset(out, 0, sizeof(*out));
	if (!l || json_is_null(l))
		return 0;
	snprintf(prefix, sizeof(prefix), "links.%s.", key);
	if (!json_is_object(l))
		return hg_error_set("%s: links.%s: expected an object", file, key);
	if (hg_ev_str(&out->label, file, l, prefix, "label", 1) != 0 ||
		hg_ev_str(&out->href, file, l, prefix, "href", 0) != 0)
		return -1;
	if (out->href && !hg_href_ok(out->href))
		return hg_error_set("%s: links.%s.href: \"%s\" is neither an http(s) URL nor a relative "
			"path inside the site: refused", file, key, out->href);
	return 0;
}

static void S_entry_clear(hg_entry *e)
{
	free(e->id);
	free(e->name);
	free(e->category);
	free(e->function);
	hg_strv_free(e->parameter_sets);
	free(e->security.label);
	free(e->security.href);
	free(e->submission.label);
	free(e->submission.href);
	hg_sc_primitive_free(e->supercop);
}

static int S_load_entry(hg_entry *e, const char *path, const char *stem)
{
	char *text;
	size_t len, i;
	json_t *j, *sets, *v, *links;
	int rc = -1;

	memset(e, 0, sizeof(*e));
	if (hg_read_file(&text, &len, path) != 0)
		return -1;
	hg_sha256_hex(e->sha256, text, len);
	j = hg_ev_parse(path, text, len);
	free(text);
	if (!j)
		return -1;
	if (!json_is_object(j)) {
		hg_error_set("%s: expected a JSON object", path);
		goto out;
	}
	if (hg_ev_str(&e->id, path, j, "", "id", 1) != 0 ||
		hg_ev_str(&e->name, path, j, "", "name", 1) != 0 ||
		hg_ev_str(&e->category, path, j, "", "category", 0) != 0 ||
		hg_ev_str(&e->function, path, j, "", "function", 0) != 0)
		goto out;
	if (strcmp(e->id, stem) != 0) {
		hg_error_set("%s: id: \"%s\" contradicts the file name", path, e->id);
		goto out;
	}
	sets = json_object_get(j, "parameter_sets");
	e->parameter_sets = calloc(1, sizeof(char *));
	if (sets && !json_is_array(sets)) {
		hg_error_set("%s: parameter_sets: expected an array of strings", path);
		goto out;
	}
	if (sets) {
		size_t n = 0;
		json_array_foreach(sets, i, v) {
			if (!json_is_string(v)) {
				hg_error_set("%s: parameter_sets[%zu]: expected a string", path, i);
				goto out;
			}
			hg_strv_push(&e->parameter_sets, &n, hg_xstrdup(json_string_value(v)));
		}
	}
	links = json_object_get(j, "links");
	if (links && !json_is_object(links)) {
		hg_error_set("%s: links: expected an object", path);
		goto out;
	}
	if (S_link(&e->security, path, links, "security_evaluation") != 0 ||
		S_link(&e->submission, path, links, "submission") != 0 ||
		hg_sc_entry_read(e, j, path) != 0)
		goto out;
	rc = 0;
out:
	json_decref(j);
	return rc;
}

/* ---- a system ---- */

static int S_load_sums(hg_system *s)
{
	char *path = hg_xprintf("%s/SHA256SUMS", s->dir);
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	/* no SHA256SUMS: every file will show as unlisted */
	if (fd >= 0)
		rc = hg_sums_load(s, fd, path);
	free(path);
	return rc;
}

/* The counter's overhead and the spread limit of system.json. */
static int S_overhead(hg_system *s, const char *file, json_t *j, json_t *campaign)
{
	json_t *v = json_object_get(j, "virtual_machine");
	s->virtual_machine = json_is_boolean(v) ? json_is_true(v) : -1;
	{
		json_t *ov = json_object_get(j, "overhead"), *x;
		s->counter_read_cycles = -1;
		s->empty_call_cycles = -1;
		s->overhead_subtracted = -1;
		if (ov && !json_is_null(ov)) {
			if (!json_is_object(ov)) {
				hg_ev_bad(file, "overhead", "expected an object");
				return -1;
			}
			if (hg_ev_int(&s->counter_read_cycles, file, ov, "overhead.", "counter_read_cycles", 0))
				return -1;
			x = json_object_get(ov, "empty_call_cycles");
			if (x && !json_is_null(x) && !json_is_number(x)) {
				hg_ev_bad(file, "overhead.empty_call_cycles", "expected a number");
				return -1;
			}
			if (x && json_is_number(x))
				s->empty_call_cycles = json_number_value(x);
			x = json_object_get(ov, "subtracted");
			if (json_is_boolean(x))
				s->overhead_subtracted = json_is_true(x);
		}
		x = json_object_get(campaign, "spread_limit_pct");
		if (x && !json_is_null(x) && !json_is_number(x)) {
			hg_ev_bad(file, "campaign.spread_limit_pct", "expected a number");
			return -1;
		}
		s->spread_limit_pct = x && json_is_number(x) && json_number_value(x) > 0 ?
			json_number_value(x) : 5.0;
	}
	return 0;
}

/* system.json's warnings, NULL-terminated. */
static int S_warnings(hg_system *s, const char *file, json_t *j)
{
	json_t *w, *v;
	size_t i;

	w = json_object_get(j, "warnings");
	s->warnings = calloc(1, sizeof(char *));
	if (w && !json_is_array(w)) {
		hg_ev_bad(file, "warnings", "expected an array of strings");
		return -1;
	}
	if (w) {
		size_t n = 0;
		json_array_foreach(w, i, v) {
			if (!json_is_string(v)) {
				char p[64];
				snprintf(p, sizeof(p), "warnings[%zu]", i);
				hg_ev_bad(file, p, "expected a string");
				return -1;
			}
			hg_strv_push(&s->warnings, &n, hg_xstrdup(json_string_value(v)));
		}
	}
	return 0;
}

/* The algorithms with evidence on s: folders of records/ and kat/. */
static int S_algorithms(hg_system *s, const char *root_real)
{
	char **ids = NULL, **more = NULL, *sub;
	size_t nids = 0, nmore = 0, i, k;
	int rc;

	sub = hg_xprintf("%s/records", s->dir);
	rc = hg_ev_list(&ids, &nids, sub, 'd', root_real);
	free(sub);
	if (rc != 0)
		goto out;
	sub = hg_xprintf("%s/kat", s->dir);
	rc = hg_ev_list(&more, &nmore, sub, 'd', root_real);
	free(sub);
	if (rc != 0)
		goto out;
	for (k = 0; k < nmore; k++)
		hg_strv_push(&ids, &nids, hg_xstrdup(more[k]));
	if (nids)
		qsort(ids, nids, sizeof(char *), hg_cmp_str);
	/* each once: sorted, a folder in both records/ and kat/ is two neighbours */
	for (i = 0, k = 0; i < nids; i++) {
		if (k && strcmp(ids[k - 1], ids[i]) == 0)
			free(ids[i]);
		else
			ids[k++] = ids[i];
	}
	nids = k;
	if (ids)
		ids[nids] = NULL;
	s->nalgorithms = nids;
	s->algorithms = ids ? ids : calloc(1, sizeof(char *));
	ids = NULL;
	rc = 0;
out:
	hg_strv_free(ids);
	hg_strv_free(more);
	return rc;
}

static int S_load_system(hg_system *s, const char *data_dir, const char *name,
	const char *root_real)
{
	char *path, *text;
	size_t len;
	json_t *j, *clock, *boost, *counter, *campaign;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	s->name = hg_xstrdup(name);
	s->dir = hg_xprintf("%s/%s", data_dir, name);
	path = hg_xprintf("%s/system.json", s->dir);
	if (hg_read_file(&text, &len, path) != 0) {
		free(path);
		return -1;
	}
	hg_sha256_hex(s->system_sha256, text, len);
	j = hg_ev_parse(path, text, len);
	free(text);
	if (!j || hg_ev_schema(path, j, "hashbench.system/1") != 0)
		goto out;
	{
		char *sysname = NULL;
		if (hg_ev_str(&sysname, path, j, "", "system", 1) != 0)
			goto out;
		if (strcmp(sysname, name) != 0) {
			hg_error_set("%s: system: \"%s\" contradicts the folder name \"%s\"", path, sysname,
				name);
			free(sysname);
			goto out;
		}
		free(sysname);
	}
	clock = json_object_get(j, "clock");
	counter = json_object_get(j, "counter");
	campaign = json_object_get(j, "campaign");
	if (!json_is_object(clock)) {
		hg_ev_bad(path, "clock", clock ? "expected an object" : "missing");
		goto out;
	}
	if (!json_is_object(counter)) {
		hg_ev_bad(path, "counter", counter ? "expected an object" : "missing");
		goto out;
	}
	if (!json_is_object(campaign)) {
		hg_ev_bad(path, "campaign", campaign ? "expected an object" : "missing");
		goto out;
	}
	{
		long long cpu;
		if (hg_ev_str(&s->arch, path, j, "", "arch", 0) ||
			hg_ev_str(&s->processor, path, j, "", "processor", 0) ||
			hg_ev_str(&s->machine, path, j, "", "machine", 0) || hg_ev_int(&cpu, path, j, "", "cpu", 1) ||
			hg_ev_str(&s->governor, path, clock, "clock.", "governor", 0) ||
			hg_ev_int(&s->min_khz, path, clock, "clock.", "min_khz", 0) ||
			hg_ev_int(&s->max_khz, path, clock, "clock.", "max_khz", 0) ||
			hg_ev_str(&s->smt, path, clock, "clock.", "smt", 0) ||
			hg_ev_int(&s->memory_mib, path, j, "", "memory_mib", 0) ||
			hg_ev_str(&s->os, path, j, "", "os", 0) || hg_ev_str(&s->kernel, path, j, "", "kernel", 0) ||
			hg_ev_str(&s->compiler, path, j, "", "compiler", 0) ||
			hg_ev_str(&s->build_tool, path, j, "", "build_tool", 0) ||
			hg_counter_load(s, counter, path) ||
			hg_ev_str(&s->start, path, campaign, "campaign.", "start", 1) ||
			hg_ev_str(&s->end, path, campaign, "campaign.", "end", 0) ||
			hg_ev_str(&s->profile, path, campaign, "campaign.", "profile", 1) ||
			hg_ev_str(&s->hashbench, path, campaign, "campaign.", "hashbench", 1) ||
			hg_ev_int(&s->rounds, path, campaign, "campaign.", "rounds", 0) ||
			hg_ev_int(&s->round_ms, path, campaign, "campaign.", "round_ms", 0) ||
			hg_ev_int(&s->max_calls, path, campaign, "campaign.", "max_calls", 0))
			goto out;
		s->cpu = (int)cpu;
	}
	boost = json_object_get(clock, "boost");
	if (boost && !json_is_null(boost)) {
		if (!json_is_object(boost)) {
			hg_ev_bad(path, "clock.boost", "expected an object or null");
			goto out;
		}
		if (hg_ev_str(&s->boost_name, path, boost, "clock.boost.", "name", 1) ||
			hg_ev_str(&s->boost_state, path, boost, "clock.boost.", "state", 0))
			goto out;
	}
	if (S_overhead(s, path, j, campaign) != 0 || S_warnings(s, path, j) != 0)
		goto out;
	hg_counter_warnings(s);
	s->sandbox = hg_sandbox_describe(json_object_get(j, "sandbox"), &s->sandbox_off);
	s->schedule = hg_schedule_describe(j);
	if (s->sandbox_off == 1) {
		size_t n = 0;
		while (s->warnings[n])
			n++;
		hg_strv_push(&s->warnings, &n, hg_xstrdup("Measured with --no-sandbox: submission code "
			"ran with hashbench's own rights, without namespaces, system-call filter or limits."));
	}
	if (S_load_sums(s) != 0 || hg_import_load(s, json_object_get(j, "measured_by"), path) != 0 ||
		hg_sentinel_load(s, json_object_get(campaign, "sentinel"), path) != 0 ||
		hg_headline_campaign(s, campaign, path) != 0)
		goto out;
	if (S_algorithms(s, root_real) != 0)
		goto out;
	rc = 0;
out:
	json_decref(j);
	free(path);
	return rc;
}

static void S_system_clear(hg_system *s)
{
	size_t i;
	char **fields[] = { &s->name, &s->dir, &s->arch, &s->processor, &s->machine, &s->governor,
		&s->boost_name, &s->boost_state, &s->smt, &s->os, &s->kernel, &s->compiler,
		&s->build_tool, &s->counter, &s->start, &s->end, &s->profile, &s->hashbench };
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		free(*fields[i]);
	hg_strv_free(s->warnings);
	free(s->sandbox);
	free(s->schedule);
	free(s->estimator);
	free(s->paired_anchor);
	free(s->floor_source);
	hg_strv_free(s->algorithms);
	hg_import_free(s->imported);
	hg_sentinel_free(s->sentinel);
	hg_sumindex_free(s->sums);
}

static int S_cmp_entry(const void *a, const void *b)
{
	return strcmp(((const hg_entry *)a)->id, ((const hg_entry *)b)->id);
}

/* One system.json with its SHA256SUMS, loaded on a thread of its own while the catalog loads:
 * its failure is kept as text, since the message of hg_error_set is the thread's. */
typedef struct {
	hg_system *s;
	const char *data_dir, *name, *root_real;
	char *error;
	pthread_t thread;
	int started;
} S_sysload;

static void *S_sysload_run(void *arg)
{
	S_sysload *l = arg;
	if (S_load_system(l->s, l->data_dir, l->name, l->root_real) != 0)
		l->error = hg_xstrdup(hg_error_last());
	return NULL;
}

/* The catalog's entries, sorted by id. */
static int S_load_entries(hg_data *d, const char *data_dir, const char *root_real)
{
	char **names = NULL, *dir = hg_xprintf("%s/algorithms", data_dir);
	size_t n = 0, i;
	int rc = hg_ev_list(&names, &n, dir, 'f', root_real);
	free(dir);
	if (rc == 0 && n) {
		d->entries = calloc(n, sizeof(hg_entry));
		for (i = 0; i < n && rc == 0; i++) {
			size_t len = strlen(names[i]);
			char *stem, *path;
			if (len < 6 || strcmp(names[i] + len - 5, ".json") != 0)
				continue;
			stem = strndup(names[i], len - 5);
			path = hg_xprintf("%s/algorithms/%s", data_dir, names[i]);
			rc = S_load_entry(&d->entries[d->nentries], path, stem);
			d->nentries++;
			free(stem);
			free(path);
		}
	}
	hg_strv_free(names);
	/* by id, as hg_data_entry looks them up ("a-b.json" lists before "a.json") */
	if (rc == 0 && d->nentries)
		qsort(d->entries, d->nentries, sizeof(hg_entry), S_cmp_entry);
	return rc;
}

int hg_data_load(hg_data **out, const char *data_dir)
{
	hg_data *d = calloc(1, sizeof(*d));
	char root_real[PATH_MAX], **names = NULL;
	size_t n = 0, i, nl = 0;
	S_sysload *loads = NULL;
	char *list_error = NULL;
	int rc;

	*out = NULL;
	if (!d || !realpath(data_dir, root_real)) {
		free(d);
		return hg_error_set("%s: %s", data_dir, strerror(errno));
	}
	d->data_dir = hg_xstrdup(data_dir);
	d->root_real = hg_xstrdup(root_real);
	/* the systems load on threads of their own while this one reads the catalog; the first
	 * failure in the order of a load one after the other is the one told */
	if (hg_ev_list(&names, &n, data_dir, 'd', root_real) != 0) {
		list_error = hg_xstrdup(hg_error_last());
	} else {
		d->systems = calloc(n + 1, sizeof(hg_system));
		loads = calloc(n + 1, sizeof(S_sysload));
		for (i = 0; i < n; i++) {
			char *sys = hg_xprintf("%s/%s/system.json", data_dir, names[i]);
			int has = access(sys, F_OK) == 0;
			free(sys);
			if (strcmp(names[i], "algorithms") == 0 || !has)
				continue;
			loads[nl] = (S_sysload){ &d->systems[nl], data_dir, names[i], d->root_real, NULL, 0,
				0 };
			loads[nl].started = pthread_create(&loads[nl].thread, NULL, S_sysload_run,
				&loads[nl]) == 0;
			nl++;
		}
	}
	rc = S_load_entries(d, data_dir, root_real);
	for (i = 0; i < nl; i++) {
		if (loads[i].started)
			pthread_join(loads[i].thread, NULL);
		else
			S_sysload_run(&loads[i]);
	}
	d->nsystems = nl;
	if (rc == 0 && list_error)
		rc = hg_error_set("%s", list_error);
	for (i = 0; i < nl && rc == 0; i++)
		if (loads[i].error)
			rc = hg_error_set("%s", loads[i].error);
	for (i = 0; i < nl; i++)
		free(loads[i].error);
	free(loads);
	free(list_error);
	hg_strv_free(names);
	if (rc == 0 && d->nsystems == 0)
		rc = hg_error_set("%s: no system folder with a system.json (run hashbench run first)",
			data_dir);
	if (rc != 0) {
		hg_data_free(d);
		return -1;
	}
	*out = d;
	return 0;
}

void hg_data_free(hg_data *d)
{
	size_t i;
	if (!d)
		return;
	for (i = 0; i < d->nentries; i++)
		S_entry_clear(&d->entries[i]);
	free(d->entries);
	for (i = 0; i < d->nsystems; i++)
		S_system_clear(&d->systems[i]);
	free(d->systems);
	free(d->data_dir);
	free(d->root_real);
	free(d);
}

const hg_entry *hg_data_entry(const hg_data *d, const char *id)
{
	hg_entry key;
	key.id = (char *)id;
	return d->nentries ? bsearch(&key, d->entries, d->nentries, sizeof(hg_entry), S_cmp_entry) :
		NULL;
}

int hg_system_has(const hg_system *s, const char *id)
{
	size_t lo = 0, hi = s->nalgorithms, mid;
	/* the list is sorted (hg_data_load): a binary search, so that a large field stays linear */
	while (lo < hi) {
		int c;
		mid = lo + (hi - lo) / 2;
		c = strcmp(s->algorithms[mid], id);
		if (c == 0)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

