/* evidence.c — reading data/ as untrusted input: the catalog, each system's system.json and
 * SHA256SUMS, and per page the records and KAT summaries of one algorithm, every file checked
 * against SHA256SUMS; every problem is reported with the file and the JSON path of the value. */
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

#include "hashgen.h"

/* ---- JSON access with paths in the messages ---- */

typedef struct {
	const char *file;
} S_ctx;

static int S_bad(const S_ctx *c, const char *path, const char *what)
{
	return hg_error_set("%s: %s: %s", c->file, path, what);
}

/* A string field: required (NULL is an error), or optional (absent or null give NULL). */
static int S_str(char **out, const S_ctx *c, json_t *obj, const char *prefix, const char *key,
	int required)
{
	json_t *v = json_object_get(obj, key);
	char path[256];
	*out = NULL;
	snprintf(path, sizeof(path), "%s%s", prefix, key);
	if (!v || json_is_null(v)) {
		if (required)
			return S_bad(c, path, v ? "expected a string, got null" : "missing");
		return 0;
	}
	if (!json_is_string(v))
		return S_bad(c, path, "expected a string");
	*out = hg_xstrdup(json_string_value(v));
	return 0;
}

/* An integer field; optional ones may be absent or null (-1). */
static int S_int(long long *out, const S_ctx *c, json_t *obj, const char *prefix, const char *key,
	int required)
{
	json_t *v = json_object_get(obj, key);
	char path[256];
	*out = -1;
	snprintf(path, sizeof(path), "%s%s", prefix, key);
	if (!v || json_is_null(v)) {
		if (required)
			return S_bad(c, path, v ? "expected an integer, got null" : "missing");
		return 0;
	}
	if (!json_is_integer(v))
		return S_bad(c, path, "expected an integer");
	if (json_integer_value(v) < 0)
		return S_bad(c, path, "expected an integer of 0 or more");
	*out = (long long)json_integer_value(v);
	return 0;
}

static int S_schema(const S_ctx *c, json_t *root, const char *want)
{
	json_t *v = json_object_get(root, "schema");
	if (!json_is_object(root))
		return hg_error_set("%s: expected a JSON object", c->file);
	if (!v)
		return S_bad(c, "schema", "missing");
	if (!json_is_string(v))
		return S_bad(c, "schema", "expected a string");
	if (strcmp(json_string_value(v), want) != 0)
		return hg_error_set("%s: schema: unknown version \"%s\" (this hashgen reads %s)", c->file,
			json_string_value(v), want);
	return 0;
}

static json_t *S_parse(const S_ctx *c, const char *text, size_t len)
{
	json_error_t err;
	json_t *j = json_loadb(text, len, 0, &err);
	if (!j)
		hg_error_set("%s:%d:%d: malformed JSON: %s", c->file, err.line, err.column, err.text);
	return j;
}

/* ---- hrefs and paths ---- */

int hg_href_ok(const char *href)
{
	const char *p;
	if (!href || !*href)
		return 0;
	for (p = href; *p; p++)
		if ((unsigned char)*p < 0x21 || *p == '\\' || *p == '"' || *p == '<' || *p == '>')
			return 0;
	if (strncmp(href, "https://", 8) == 0 || strncmp(href, "http://", 7) == 0)
		return href[strncmp(href, "https://", 8) == 0 ? 8 : 7] != 0;
	/* relative: no scheme, not absolute, never above the site root */
	if (href[0] == '/' || strchr(href, ':'))
		return 0;
	for (p = href; *p; ) {
		size_t n = strcspn(p, "/?#");
		if (n == 2 && strncmp(p, "..", 2) == 0)
			return 0;
		if (p[n] != '/')
			break;
		p += n + 1;
	}
	return 1;
}

int hg_sums_path_ok(const char *p)
{
	const char *s;
	if (!*p || p[0] == '/')
		return 0;
	for (s = p; *s; ) {
		size_t n = strcspn(s, "/");
		if (n == 0 || (n == 2 && strncmp(s, "..", 2) == 0) || (n == 1 && s[0] == '.'))
			return 0;
		if (!s[n])
			break;
		s += n + 1;
	}
	return 1;
}

/* ---- listing folders ---- */

static int S_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void S_push(char ***v, size_t *n, char *s)
{
	char **g = realloc(*v, (*n + 2) * sizeof(char *));
	if (!g) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	*v = g;
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

static void S_strv_free(char **v)
{
	size_t i;
	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* Is a symbolic link safe: does it resolve inside root? */
static int S_link_inside(const char *path, const char *root_real)
{
	char real[PATH_MAX];
	size_t n = strlen(root_real);
	if (!realpath(path, real))
		return 0;
	return strncmp(real, root_real, n) == 0 && (real[n] == '/' || real[n] == 0);
}

/* Entries of dir (names), sorted; kind 'd' folders, 'f' files; symbolic links must stay in
 * root_real (else an error). A missing folder is an empty list. The type comes from readdir
 * where the file system gives it: no stat per entry. */
static int S_list(char ***out, size_t *n, const char *dir, char kind, const char *root_real)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	*out = NULL;
	*n = 0;
	if (!d)
		return errno == ENOENT ? 0 : hg_error_set("%s: %s", dir, strerror(errno));
	while ((de = readdir(d)) != NULL) {
		int is_dir = de->d_type == DT_DIR, is_reg = de->d_type == DT_REG;
		if (de->d_name[0] == '.')
			continue;
		if (de->d_type == DT_LNK || de->d_type == DT_UNKNOWN) {
			char *full = hg_xprintf("%s/%s", dir, de->d_name);
			struct stat st;
			if (de->d_type == DT_LNK && !S_link_inside(full, root_real)) {
				hg_error_set("%s: a symbolic link that leads out of the data folder: refused",
					full);
				free(full);
				closedir(d);
				S_strv_free(*out);
				*out = NULL;
				return -1;
			}
			if (stat(full, &st) == 0) {
				is_dir = S_ISDIR(st.st_mode);
				is_reg = S_ISREG(st.st_mode);
			}
			free(full);
		}
		if ((kind == 'd' && is_dir) || (kind == 'f' && is_reg)) {
			/* names become link targets: only characters that need no escaping */
			if (strspn(de->d_name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					"0123456789._-") != strlen(de->d_name)) {
				hg_error_set("%s/%s: a name with characters other than letters, digits, '.', "
					"'_' and '-': refused", dir, de->d_name);
				closedir(d);
				S_strv_free(*out);
				*out = NULL;
				return -1;
			}
			S_push(out, n, hg_xstrdup(de->d_name));
		}
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof(char *), S_cmp);
	return 0;
}

/* The calling thread's read buffer (S_read_at), freed by hg_evidence_release. */
static _Thread_local char *S_rbuf;
static _Thread_local size_t S_rcap;

void hg_evidence_release(void)
{
	free(S_rbuf);
	S_rbuf = NULL;
	S_rcap = 0;
}

/* Read a file of a folder into a buffer of the calling thread (valid until its next call). */
static int S_read_at(char **out, size_t *len, int dfd, const char *name, const char *shown,
	struct stat *st)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	if (fd < 0)
		return hg_error_set("%s: %s", shown, strerror(errno));
	if (st && fstat(fd, st) != 0) {
		close(fd);
		return hg_error_set("%s: %s", shown, strerror(errno));
	}
	for (;;) {
		ssize_t r;
		if (S_rcap - got < 4096) {
			char *g = realloc(S_rbuf, S_rcap ? 2 * S_rcap : 65536);
			if (!g) {
				close(fd);
				return hg_error_set("%s: out of memory", shown);
			}
			S_rbuf = g;
			S_rcap = S_rcap ? 2 * S_rcap : 65536;
		}
		r = read(fd, S_rbuf + got, S_rcap - got - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			close(fd);
			return hg_error_set("%s: %s", shown, strerror(errno));
		}
		got += (size_t)r;
		/* a regular file gives all it has: a short read is its end (saves a read per file) */
		if (r == 0 || (size_t)r < S_rcap - (got - (size_t)r) - 1)
			break;
	}
	close(fd);
	S_rbuf[got] = 0;
	*out = S_rbuf;
	*len = got;
	return 0;
}

/* ---- the catalog ---- */

static int S_link(hg_link *out, const S_ctx *c, json_t *links, const char *key)
{
	json_t *l = json_object_get(links, key);
	char prefix[64];
	memset(out, 0, sizeof(*out));
	if (!l || json_is_null(l))
		return 0;
	snprintf(prefix, sizeof(prefix), "links.%s.", key);
	if (!json_is_object(l))
		return hg_error_set("%s: links.%s: expected an object", c->file, key);
	if (S_str(&out->label, c, l, prefix, "label", 1) != 0 ||
		S_str(&out->href, c, l, prefix, "href", 0) != 0)
		return -1;
	if (out->href && !hg_href_ok(out->href))
		return hg_error_set("%s: links.%s.href: \"%s\" is neither an http(s) URL nor a relative "
			"path inside the site: refused", c->file, key, out->href);
	return 0;
}

static void S_entry_clear(hg_entry *e)
{
	free(e->id);
	free(e->name);
	free(e->category);
	free(e->function);
	S_strv_free(e->parameter_sets);
	free(e->security.label);
	free(e->security.href);
	free(e->submission.label);
	free(e->submission.href);
}

static int S_load_entry(hg_entry *e, const char *path, const char *stem)
{
	S_ctx c = { path };
	char *text;
	size_t len, i;
	json_t *j, *sets, *v, *links;
	int rc = -1;

	memset(e, 0, sizeof(*e));
	if (hg_read_file(&text, &len, path) != 0)
		return -1;
	hg_sha256_hex(e->sha256, text, len);
	j = S_parse(&c, text, len);
	free(text);
	if (!j)
		return -1;
	if (!json_is_object(j)) {
		hg_error_set("%s: expected a JSON object", path);
		goto out;
	}
	if (S_str(&e->id, &c, j, "", "id", 1) != 0 || S_str(&e->name, &c, j, "", "name", 1) != 0 ||
		S_str(&e->category, &c, j, "", "category", 0) != 0 ||
		S_str(&e->function, &c, j, "", "function", 0) != 0)
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
			S_push(&e->parameter_sets, &n, hg_xstrdup(json_string_value(v)));
		}
	}
	links = json_object_get(j, "links");
	if (links && !json_is_object(links)) {
		hg_error_set("%s: links: expected an object", path);
		goto out;
	}
	if (S_link(&e->security, &c, links, "security_evaluation") != 0 ||
		S_link(&e->submission, &c, links, "submission") != 0)
		goto out;
	rc = 0;
out:
	json_decref(j);
	return rc;
}

/* ---- a system ---- */

int hg_sums_parse(hg_system *s, char *text, const char *path)
{
	char *line, *save = NULL;
	size_t cap = 0;
	int lineno = 0, rc = 0;

	for (line = strtok_r(text, "\n", &save); line && rc == 0; line = strtok_r(NULL, "\n", &save)) {
		char *name = line + 64;
		lineno++;
		if (strspn(line, "0123456789abcdef") != 64 || name[0] != ' ' ||
			(name[1] != ' ' && name[1] != '*')) {
			rc = hg_error_set("%s:%d: expected \"<sha256>  <file>\"", path, lineno);
			break;
		}
		name += 2;
		if (!hg_sums_path_ok(name)) {
			rc = hg_error_set("%s:%d: %s: a path that leaves the system folder: refused", path,
				lineno, name);
			break;
		}
		if (s->nsums == cap) {
			hg_sum *g;
			cap = cap ? 2 * cap : 256;
			g = realloc(s->sums, cap * sizeof(*g));
			if (!g) {
				fprintf(stderr, "hashgen: out of memory\n");
				exit(1);
			}
			s->sums = g;
		}
		line[64] = 0;
		s->sums[s->nsums].path = hg_xstrdup(name);
		memcpy(s->sums[s->nsums].sha256, line, 65);
		s->nsums++;
	}
	if (rc == 0 && s->nsums > 1) {
		size_t i;
		/* SHA256SUMS is written sorted; a sorted check keeps lookups a binary search */
		for (i = 1; i < s->nsums; i++)
			if (strcmp(s->sums[i - 1].path, s->sums[i].path) >= 0)
				break;
		if (i < s->nsums) {
			size_t a, b;
			for (a = 1; a < s->nsums; a++)
				for (b = a; b > 0 && strcmp(s->sums[b - 1].path, s->sums[b].path) > 0; b--) {
					hg_sum t = s->sums[b];
					s->sums[b] = s->sums[b - 1];
					s->sums[b - 1] = t;
				}
		}
	}
	return rc;
}

static int S_load_sums(hg_system *s)
{
	char *path = hg_xprintf("%s/SHA256SUMS", s->dir), *text;
	size_t len;
	int rc;

	if (hg_read_file(&text, &len, path) != 0) {
		/* no SHA256SUMS: every file will show as unlisted */
		free(path);
		return 0;
	}
	rc = hg_sums_parse(s, text, path);
	free(text);
	free(path);
	return rc;
}

const char *hg_system_sum(const hg_system *s, const char *rel)
{
	size_t lo = 0, hi = s->nsums;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(s->sums[mid].path, rel);
		if (c == 0)
			return s->sums[mid].sha256;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int S_load_system(hg_system *s, const char *data_dir, const char *name,
	const char *root_real)
{
	S_ctx c;
	char *path, *text, **ids = NULL, **more = NULL, *sub;
	size_t len, nids = 0, nmore = 0, i, k;
	json_t *j, *clock, *boost, *counter, *campaign, *w, *v;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	s->name = hg_xstrdup(name);
	s->dir = hg_xprintf("%s/%s", data_dir, name);
	path = hg_xprintf("%s/system.json", s->dir);
	c.file = path;
	if (hg_read_file(&text, &len, path) != 0) {
		free(path);
		return -1;
	}
	hg_sha256_hex(s->system_sha256, text, len);
	j = S_parse(&c, text, len);
	free(text);
	if (!j || S_schema(&c, j, "hashbench.system/1") != 0)
		goto out;
	{
		char *sysname = NULL;
		if (S_str(&sysname, &c, j, "", "system", 1) != 0)
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
		S_bad(&c, "clock", clock ? "expected an object" : "missing");
		goto out;
	}
	if (!json_is_object(counter)) {
		S_bad(&c, "counter", counter ? "expected an object" : "missing");
		goto out;
	}
	if (!json_is_object(campaign)) {
		S_bad(&c, "campaign", campaign ? "expected an object" : "missing");
		goto out;
	}
	{
		long long cpu;
		if (S_str(&s->arch, &c, j, "", "arch", 0) || S_str(&s->processor, &c, j, "", "processor", 0) ||
			S_str(&s->machine, &c, j, "", "machine", 0) || S_int(&cpu, &c, j, "", "cpu", 1) ||
			S_str(&s->governor, &c, clock, "clock.", "governor", 0) ||
			S_int(&s->min_khz, &c, clock, "clock.", "min_khz", 0) ||
			S_int(&s->max_khz, &c, clock, "clock.", "max_khz", 0) ||
			S_str(&s->smt, &c, clock, "clock.", "smt", 0) ||
			S_int(&s->memory_mib, &c, j, "", "memory_mib", 0) ||
			S_str(&s->os, &c, j, "", "os", 0) || S_str(&s->kernel, &c, j, "", "kernel", 0) ||
			S_str(&s->compiler, &c, j, "", "compiler", 0) ||
			S_str(&s->build_tool, &c, j, "", "build_tool", 0) ||
			S_str(&s->counter, &c, counter, "counter.", "name", 1) ||
			S_int(&s->counter_hz, &c, counter, "counter.", "hz", 0) ||
			S_str(&s->start, &c, campaign, "campaign.", "start", 1) ||
			S_str(&s->end, &c, campaign, "campaign.", "end", 0) ||
			S_str(&s->profile, &c, campaign, "campaign.", "profile", 1) ||
			S_str(&s->hashbench, &c, campaign, "campaign.", "hashbench", 1) ||
			S_int(&s->rounds, &c, campaign, "campaign.", "rounds", 0) ||
			S_int(&s->round_ms, &c, campaign, "campaign.", "round_ms", 0) ||
			S_int(&s->max_calls, &c, campaign, "campaign.", "max_calls", 0))
			goto out;
		s->cpu = (int)cpu;
	}
	boost = json_object_get(clock, "boost");
	if (boost && !json_is_null(boost)) {
		if (!json_is_object(boost)) {
			S_bad(&c, "clock.boost", "expected an object or null");
			goto out;
		}
		if (S_str(&s->boost_name, &c, boost, "clock.boost.", "name", 1) ||
			S_str(&s->boost_state, &c, boost, "clock.boost.", "state", 0))
			goto out;
	}
	v = json_object_get(j, "virtual_machine");
	s->virtual_machine = json_is_boolean(v) ? json_is_true(v) : -1;
	{
		json_t *ov = json_object_get(j, "overhead"), *x;
		s->counter_read_cycles = -1;
		s->empty_call_cycles = -1;
		s->overhead_subtracted = -1;
		if (ov && !json_is_null(ov)) {
			if (!json_is_object(ov)) {
				S_bad(&c, "overhead", "expected an object");
				goto out;
			}
			if (S_int(&s->counter_read_cycles, &c, ov, "overhead.", "counter_read_cycles", 0))
				goto out;
			x = json_object_get(ov, "empty_call_cycles");
			if (x && !json_is_null(x) && !json_is_number(x)) {
				S_bad(&c, "overhead.empty_call_cycles", "expected a number");
				goto out;
			}
			if (x && json_is_number(x))
				s->empty_call_cycles = json_number_value(x);
			x = json_object_get(ov, "subtracted");
			if (json_is_boolean(x))
				s->overhead_subtracted = json_is_true(x);
		}
		x = json_object_get(campaign, "spread_limit_pct");
		if (x && !json_is_null(x) && !json_is_number(x)) {
			S_bad(&c, "campaign.spread_limit_pct", "expected a number");
			goto out;
		}
		s->spread_limit_pct = x && json_is_number(x) && json_number_value(x) > 0 ?
			json_number_value(x) : 5.0;
	}
	w = json_object_get(j, "warnings");
	s->warnings = calloc(1, sizeof(char *));
	if (w && !json_is_array(w)) {
		S_bad(&c, "warnings", "expected an array of strings");
		goto out;
	}
	if (w) {
		size_t n = 0;
		json_array_foreach(w, i, v) {
			if (!json_is_string(v)) {
				char p[64];
				snprintf(p, sizeof(p), "warnings[%zu]", i);
				S_bad(&c, p, "expected a string");
				goto out;
			}
			S_push(&s->warnings, &n, hg_xstrdup(json_string_value(v)));
		}
	}
	s->sandbox = hg_sandbox_describe(json_object_get(j, "sandbox"), &s->sandbox_off);
	s->schedule = hg_schedule_describe(j);
	if (s->sandbox_off == 1) {
		size_t n = 0;
		while (s->warnings[n])
			n++;
		S_push(&s->warnings, &n, hg_xstrdup("Measured with --no-sandbox: submission code ran "
			"with hashbench's own rights, without namespaces, system-call filter or limits."));
	}
	if (S_load_sums(s) != 0 || hg_import_load(s, json_object_get(j, "measured_by"), path) != 0 ||
		hg_sentinel_load(s, json_object_get(campaign, "sentinel"), path) != 0 ||
		hg_headline_campaign(s, campaign, path) != 0)
		goto out;
	/* the algorithms with evidence here: folders of records/ and kat/ */
	sub = hg_xprintf("%s/records", s->dir);
	rc = S_list(&ids, &nids, sub, 'd', root_real);
	free(sub);
	if (rc != 0)
		goto out;
	sub = hg_xprintf("%s/kat", s->dir);
	rc = S_list(&more, &nmore, sub, 'd', root_real);
	free(sub);
	if (rc != 0)
		goto out;
	rc = -1;
	for (k = 0; k < nmore; k++) {
		int dup = 0;
		for (i = 0; i < nids && !dup; i++)
			dup = strcmp(ids[i], more[k]) == 0;
		if (!dup)
			S_push(&ids, &nids, hg_xstrdup(more[k]));
	}
	if (nids)
		qsort(ids, nids, sizeof(char *), S_cmp);
	s->algorithms = ids ? ids : calloc(1, sizeof(char *));
	ids = NULL;
	rc = 0;
out:
	S_strv_free(ids);
	S_strv_free(more);
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
	S_strv_free(s->warnings);
	free(s->sandbox);
	free(s->schedule);
	free(s->estimator);
	S_strv_free(s->algorithms);
	hg_import_free(s->imported);
	hg_sentinel_free(s->sentinel);
	for (i = 0; i < s->nsums; i++) {
		free(s->sums[i].path);
	}
	free(s->sums);
}

int hg_data_load(hg_data **out, const char *data_dir)
{
	hg_data *d = calloc(1, sizeof(*d));
	char root_real[PATH_MAX], **names = NULL, *dir;
	size_t n = 0, i;
	int rc = 0;

	*out = NULL;
	if (!d || !realpath(data_dir, root_real)) {
		free(d);
		return hg_error_set("%s: %s", data_dir, strerror(errno));
	}
	d->data_dir = hg_xstrdup(data_dir);
	d->root_real = hg_xstrdup(root_real);
	dir = hg_xprintf("%s/algorithms", data_dir);
	rc = S_list(&names, &n, dir, 'f', root_real);
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
	S_strv_free(names);
	names = NULL;
	n = 0;
	if (rc == 0)
		rc = S_list(&names, &n, data_dir, 'd', root_real);
	if (rc == 0) {
		d->systems = calloc(n + 1, sizeof(hg_system));
		for (i = 0; i < n && rc == 0; i++) {
			char *sys = hg_xprintf("%s/%s/system.json", data_dir, names[i]);
			int has = access(sys, F_OK) == 0;
			free(sys);
			if (strcmp(names[i], "algorithms") == 0 || !has)
				continue;
			rc = S_load_system(&d->systems[d->nsystems], data_dir, names[i], root_real);
			d->nsystems++;
		}
	}
	S_strv_free(names);
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
	size_t i;
	for (i = 0; i < d->nentries; i++)
		if (strcmp(d->entries[i].id, id) == 0)
			return &d->entries[i];
	return NULL;
}

int hg_system_has(const hg_system *s, const char *id)
{
	size_t i;
	for (i = 0; s->algorithms[i]; i++)
		if (strcmp(s->algorithms[i], id) == 0)
			return 1;
	return 0;
}

/* ---- one algorithm on one system ---- */

static int S_record(hg_record *r, const S_ctx *c, json_t *j, const hg_system *s, const char *id)
{
	json_t *trials, *t, *res, *build;
	char *sysname = NULL, *alg = NULL;
	long long bytes;
	size_t i;
	int rc = -1;

	if (S_schema(c, j, "hashbench.record/1") != 0 ||
		S_str(&sysname, c, j, "", "system", 1) || S_str(&alg, c, j, "", "algorithm", 1))
		goto out;
	if (strcmp(sysname, s->name) != 0) {
		hg_error_set("%s: system: \"%s\" contradicts the path (system %s)", c->file, sysname,
			s->name);
		goto out;
	}
	if (strcmp(alg, id) != 0) {
		hg_error_set("%s: algorithm: \"%s\" contradicts the path (algorithm %s)", c->file, alg,
			id);
		goto out;
	}
	if (S_str(&r->instance, c, j, "", "instance", 1) ||
		S_str(&r->implementation, c, j, "", "implementation", 1) ||
		S_str(&r->operation, c, j, "", "operation", 1) ||
		S_int(&bytes, c, j, "", "message_bytes", 1) ||
		S_str(&r->status, c, j, "", "status", 0) || S_str(&r->detail, c, j, "", "detail", 0) ||
		S_str(&r->kat, c, j, "", "kat", 0) ||
		S_int(&r->output_bytes, c, j, "", "output_bytes", 0))
		goto out;
	if (bytes == 0) {
		S_bad(c, "message_bytes", "0-byte records are refused (no cycles per byte)");
		goto out;
	}
	r->message_bytes = (unsigned long long)bytes;
	if (!r->status)
		r->status = hg_xstrdup("ok");
	build = json_object_get(j, "build");
	if (!json_is_object(build)) {
		S_bad(c, "build", build ? "expected an object" : "missing");
		goto out;
	}
	if (S_str(&r->flags, c, build, "build.", "flags", 1))
		goto out;
	trials = json_object_get(j, "trials");
	if (!json_is_array(trials)) {
		S_bad(c, "trials", trials ? "expected an array" : "missing");
		goto out;
	}
	if (strcmp(r->status, "ok") == 0 && json_array_size(trials) == 0) {
		S_bad(c, "trials", "a record with status ok has no rounds");
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
			S_bad(c, prefix, "expected an object");
			goto out;
		}
		if (S_int(&it, c, t, prefix, "iterations", 1) || S_int(&cy, c, t, prefix, "cycles", 1) ||
			S_int(&ns, c, t, prefix, "ns", 1))
			goto out;
		if (it == 0) {
			snprintf(prefix, sizeof(prefix), "trials[%zu].iterations", i);
			S_bad(c, prefix, "a round without calls");
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
				S_bad(c, "samples", "expected an array of integers");
				goto out;
			}
			r->nsamples = json_array_size(smp);
			r->samples = calloc(r->nsamples + 1, sizeof(*r->samples));
			json_array_foreach(smp, i, v) {
				if (!json_is_integer(v) || json_integer_value(v) < 0) {
					char p[64];
					snprintf(p, sizeof(p), "samples[%zu]", i);
					S_bad(c, p, "expected an integer of 0 or more");
					goto out;
				}
				r->samples[i] = (unsigned long long)json_integer_value(v);
			}
		}
		dist = json_object_get(j, "disturbed");
		if (dist && !json_is_null(dist) && !json_is_boolean(dist)) {
			S_bad(c, "disturbed", "expected true or false");
			goto out;
		}
		r->disturbed = json_is_true(dist);
		ret = json_object_get(j, "retries");
		if (ret && !json_is_null(ret) && !json_is_array(ret)) {
			S_bad(c, "retries", "expected an array");
			goto out;
		}
		r->nretries = ret ? json_array_size(ret) : 0;
	}
	res = json_object_get(j, "resources");
	if (!json_is_object(res)) {
		S_bad(c, "resources", res ? "expected an object" : "missing");
		goto out;
	}
	if (S_int(&r->static_bytes, c, res, "resources.", "static_bytes", 0) ||
		S_int(&r->baseline_rss_kib, c, res, "resources.", "baseline_rss_kib", 0) ||
		S_int(&r->peak_rss_kib, c, res, "resources.", "peak_rss_kib", 0) ||
		hg_memory_read(r, res, j, c->file) != 0 || hg_import_record(r, j, c->file) != 0 ||
		hg_headline_read(r, j, c->file) != 0)
		goto out;
	rc = 0;
out:
	free(sysname);
	free(alg);
	return rc;
}

static int S_kat(hg_kat *k, const S_ctx *c, json_t *j)
{
	if (S_schema(c, j, "hashbench.kat/1") || S_str(&k->instance, c, j, "", "instance", 1) ||
		S_str(&k->implementation, c, j, "", "implementation", 1) ||
		S_str(&k->build_flags, c, j, "", "build_flags", 1) ||
		S_str(&k->result, c, j, "", "result", 1) || S_str(&k->detail, c, j, "", "detail", 0))
		return -1;
	if (strcmp(k->result, "PASS") && strcmp(k->result, "FAIL") && strcmp(k->result, "ERROR"))
		return S_bad(c, "result", "expected PASS, FAIL or ERROR");
	{
		char *scope = NULL;
		if (S_str(&scope, c, j, "", "scope", 0) != 0)
			return -1;
		k->byte_aligned = scope && strcmp(scope, "byte-aligned") == 0;
		free(scope);
	}
	return hg_import_kat(k, j, c->file);
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
	}
	free(sa->kats);
	for (i = 0; i < sa->nfiles; i++)
		free(sa->files[i].file);
	free(sa->files);
	free(sa->manifest);
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
	int rc = S_list(&names, &n, dir, 'f', d->root_real), dfd = -1;

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
		S_ctx c = { full };

		struct stat st;
		if (S_read_at(&text, &len, dfd, names[i], full, &st) != 0) {
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
		hg_evfile_check(f, s);
		if (slot < 2 && nl > 5 && strcmp(names[i] + nl - 5, ".json") == 0) {
			json_t *j = S_parse(&c, text, len);
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
				rc = S_record(r, &c, j, s, id);
			} else {
				hg_kat *k;
				if ((sa->nkats & (sa->nkats - 1)) == 0)
					sa->kats = realloc(sa->kats, (sa->nkats ? 2 * sa->nkats : 1) * sizeof(hg_kat));
				k = &sa->kats[sa->nkats++];
				memset(k, 0, sizeof(*k));
				k->file = hg_xstrdup(rel);
				rc = S_kat(k, &c, j);
			}
			json_decref(j);
		} else if (slot < 2 && strcmp(names[i], "kat.sha256") == 0) {
			sa->manifest = hg_xstrdup(rel);
		}
		free(full);
	}
	/* kept open: the site links its copies through it */
	sa->dir_fd[slot] = dfd;
	S_strv_free(names);
	free(dir);
	return rc;
}

static int S_cmp_file(const void *a, const void *b)
{
	return strcmp(((const hg_evfile *)a)->file, ((const hg_evfile *)b)->file);
}

/* First index of sums whose path is >= key. */
size_t hg_system_sum_lower(const hg_system *s, const char *key)
{
	size_t lo = 0, hi = s->nsums;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (strcmp(s->sums[mid].path, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void hg_evfile_check(hg_evfile *f, const hg_system *s)
{
	const char *listed = hg_system_sum(s, f->file);
	if (listed) {
		memcpy(f->listed, listed, 65);
		f->state = strcmp(listed, f->sha256) == 0 ? HG_SUM_OK : HG_SUM_MISMATCH;
	} else {
		f->listed[0] = 0;
		f->state = HG_SUM_UNLISTED;
	}
}

void hg_evidence_missing(hg_evfile **files, size_t *n, const hg_system *s, const char *id)
{
	const char *kinds[3];
	size_t i, k, present = *n, t, nkinds = hg_evidence_kinds(s, kinds);

	for (t = 0; t < nkinds; t++) {
		char *prefix = hg_xprintf("%s/%s/", kinds[t], id);
		size_t plen = strlen(prefix);
		for (i = hg_system_sum_lower(s, prefix);
			i < s->nsums && strncmp(s->sums[i].path, prefix, plen) == 0; i++) {
			hg_evfile *f;
			int seen = 0;
			for (k = 0; k < present && !seen; k++)
				seen = strcmp((*files)[k].file, s->sums[i].path) == 0;
			if (seen)
				continue;
			*files = realloc(*files, (*n + 1) * sizeof(hg_evfile));
			f = &(*files)[(*n)++];
			memset(f, 0, sizeof(*f));
			f->file = hg_xstrdup(s->sums[i].path);
			memcpy(f->listed, s->sums[i].sha256, 65);
			f->state = HG_SUM_MISSING;
		}
		free(prefix);
	}
	if (*n)
		qsort(*files, *n, sizeof(hg_evfile), S_cmp_file);
}

int hg_sysalg_load(hg_sysalg *out, const hg_data *d, const hg_system *s, const char *id)
{
	memset(out, 0, sizeof(*out));
	out->dir_fd[0] = out->dir_fd[1] = out->dir_fd[2] = -1;
	if (S_load_folder(out, d, s, id, "kat", 0) != 0 ||
		S_load_folder(out, d, s, id, "records", 1) != 0 ||
		(s->imported && S_load_folder(out, d, s, id, HG_ORIGINALS, 2) != 0)) {
		hg_sysalg_clear(out);
		return -1;
	}
	hg_evidence_missing(&out->files, &out->nfiles, s, id);
	return 0;
}
