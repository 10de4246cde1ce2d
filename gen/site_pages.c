/* site_pages.c — the algorithm pages of the site, one job per algorithm and system: its evidence
 * loaded and checked, the page with its chart, CSV and evidence copies rendered by a pool of
 * threads, one algorithm at a time on every system (the "On other systems" table needs them
 * all), or the previous site's page left as it is when nothing it shows has changed; each page's
 * entry of the rebuild cache written, and only the few rows the outputs spanning the field read
 * set aside (spill.c) once it is done. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render.h"
#include "site_files.h"
#include "sitewide.h"

typedef struct {
	const hg_system *s;
	size_t si, ai;      /* system index, algorithm index in ids */
	const char *id;
	char *warnings;     /* lines for stderr, printed in job order */
	size_t nwarnings;
	char *error;        /* the job's failure */
	int reuse;          /* the previous site's page and copies are still right */
	int own_reused;     /* its own inputs are unchanged: its rows come from the cache */
	char key[65];       /* digest of everything the page is rendered from */
	char own[65];       /* digest of its own inputs (S_key) */
	hg_fig *figs;       /* the rows of its records */
	size_t nfigs;
	int figs_borrowed;  /* figs belong to cp */
	hg_sysalg *sa;      /* loaded, until the page is rendered */
	hg_cfile *files;    /* what the cache is to remember of its evidence files */
	size_t nfiles;
	hg_cpage *cp;       /* the previous build's entry of the page (its spanning rows), and the
	                     * page's stat for this build's; NULL until needed, freed when done */
	int have_cp;
	hg_cpage *full;     /* the same with every row, when the page needs them after all */
	int files_changed;  /* a file's stat is not the one cp remembers: cp is written again */
	int no_chart;       /* rendered without a chart */
	hg_spill_block span; /* the rows the spanning outputs read (hg_figs_spanning), set aside */
	hg_spill_block headline; /* the page's headline row (hg_figs_headline), set aside */
	char span_cmp[65], span_all[65]; /* its part of its system's spanning digests */
	long long kats[HG_KAT_TALLY]; /* its KAT results counted, for the site's index */
} S_job;

struct hg_algpages {
	int strict;
	const hg_data *d;
	const hg_texts *tx;
	const void *template;
	const char *tmp;
	const char *const *ids;
	size_t nids;
	S_job *jobs;
	size_t njobs;
	S_job ***groups;    /* per algorithm: its jobs in system order, NULL-terminated */
	size_t ngroups;
	atomic_size_t next;
	atomic_int failed;
	size_t nacross;     /* pages across systems: the algorithms of two systems or more */
	atomic_size_t across_rendered; /* of those, how many this build rendered */
	const char *cache_in;  /* the previous build's cache folder; NULL: a clean build */
	const char *cache_out; /* where this build's entries go */
	int in_place;       /* tmp is a folder of changes to the previous site */
	hg_parts *parts;    /* told of each page done */
	const char *site;   /* that site, when in_place */
	char global[65];    /* digest of the generator and the templates the pages use */
	hg_spill *spill;    /* where the pages' spanning rows wait for the system pages */
	hg_yardsticks *yards; /* per system */
	size_t nyards;
	char *yard_keys;    /* per system, 65 bytes each: the digest of its yardsticks */
};

static void S_warn(S_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void S_warn(S_job *j, const char *fmt, ...)
{
	va_list ap;
	char *line, *grown;
	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		line = NULL;
	va_end(ap);
	if (!line)
		return;
	grown = hg_xprintf("%s%s\n", j->warnings ? j->warnings : "", line);
	free(j->warnings);
	free(line);
	j->warnings = grown;
	j->nwarnings++;
}

/* The page's digest of its own inputs (hg_page_own_key) into j->own. */
static void S_own_key(const hg_algpages *c, S_job *j, const hg_evfile *files, size_t n,
	const hg_sum *sums, size_t nsums)
{
	hg_page_own_key(j->own, c->global, c->d, j->s, j->id,
		c->yard_keys + 65 * (size_t)(j->s - c->d->systems), files, n, sums, nsums);
}

/* Warnings about files that do not match SHA256SUMS, the same for a reused and a new page. */
static int S_file_warnings(const hg_algpages *c, S_job *j, const hg_evfile *files, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		const hg_evfile *f = &files[i];
		const char *what = f->state == HG_SUM_MISMATCH ? "its SHA-256 does not match SHA256SUMS" :
			f->state == HG_SUM_UNLISTED ? "not listed in SHA256SUMS" :
			f->state == HG_SUM_MISSING ? "listed in SHA256SUMS but missing" : NULL;
		if (what)
			S_warn(j, "%s/%s: %s", j->s->dir, f->file, what);
	}
	if (j->nwarnings && c->strict)
		return hg_error_set("%.*s (--strict)", (int)strcspn(j->warnings, "\n"), j->warnings);
	return 0;
}

/* What the cache keeps of a page's files. */
static void S_remember_loaded(S_job *j, const hg_evfile *files, size_t n)
{
	size_t i;
	j->files = calloc(n + 1, sizeof(hg_cfile));
	for (i = 0; i < n; i++) {
		if (files[i].state == HG_SUM_MISSING)
			continue;
		j->files[j->nfiles].path = hg_xpath(j->s->name, files[i].file, NULL);
		j->files[j->nfiles].ino = files[i].ino;
		j->files[j->nfiles].size = files[i].size;
		j->files[j->nfiles].mtime_ns = files[i].mtime_ns;
		memcpy(j->files[j->nfiles].sha256, files[i].sha256, 65);
		j->nfiles++;
	}
}

/* The job's cache entry, made empty when it has none yet. */
static hg_cpage *S_cp(S_job *j)
{
	return j->cp ? j->cp : (j->cp = hg_cpage_new());
}

/* Are the page's own inputs those of the previous build? Hashes only the files whose stat
 * changed; when they are, its rows come from the cache. */
static int S_try_reuse(hg_algpages *c, S_job *j, hg_scanned *sc, size_t nsc)
{
	const hg_cpage *cp = j->cp;
	hg_evfile *files;
	hg_sum *sums;
	size_t n = 0, i, nsums;
	char *page;
	struct stat st;
	int ok;

	/* the page the cache describes, not one of another site or of another build */
	page = hg_xprintf("%s/%s/%s.html", c->site, j->s->name, j->id);
	ok = stat(page, &st) == 0 && hg_cpage_is_page(cp, &st);
	free(page);
	if (!ok)
		return 0;
	if (hg_sums_of(&sums, &nsums, j->s, j->id) != 0)
		return -1;
	files = calloc(nsc + 1, sizeof(hg_evfile));
	for (ok = 1, i = 0; i < nsc && ok; i++) {
		char path[PATH_MAX];
		const hg_cfile *cf = (size_t)snprintf(path, sizeof path, "%s/%s", j->s->name,
			sc[i].rel) < sizeof path ? hg_cpage_file(cp, path) : NULL;
		hg_evfile *f = &files[n++];
		f->file = sc[i].rel; /* taken: the scan's list frees it no more */
		sc[i].rel = NULL;
		f->ino = (unsigned long long)sc[i].st.st_ino;
		f->size = (unsigned long long)sc[i].st.st_size;
		f->mtime_ns = hg_mtime_ns(&sc[i].st);
		if (cf && cf->ino == f->ino && cf->size == f->size && cf->mtime_ns == f->mtime_ns) {
			memcpy(f->sha256, cf->sha256, 65);
		} else {
			j->files_changed = 1;
			/* changed since the last build: hash it again */
			char *full = hg_xprintf("%s/%s", j->s->dir, f->file), *text;
			size_t len;
			ok = hg_read_file(&text, &len, full) == 0;
			free(full);
			if (ok) {
				hg_sha256_hex(f->sha256, text, len);
				free(text);
			}
		}
		hg_evfile_check(f, sums, nsums);
	}
	if (ok) {
		if (nsc != cp->nfiles)
			j->files_changed = 1;
		hg_evidence_missing(&files, &n, j->s, j->id, sums, nsums);
		S_own_key(c, j, files, n, sums, nsums);
		ok = strcmp(j->own, cp->own) == 0;
	}
	if (ok) {
		j->own_reused = 1;
		memcpy(j->kats, cp->kats, sizeof(j->kats));
		j->figs = cp->figs;
		j->nfigs = cp->nfigs;
		j->figs_borrowed = 1;
		S_remember_loaded(j, files, n);
		ok = S_file_warnings(c, j, files, n) == 0 ? 1 : -1;
	}
	for (i = 0; i < n; i++)
		free(files[i].file);
	free(files);
	hg_sums_free(sums, nsums);
	return ok;
}


/* The copies of a page's evidence: hard links made through directory descriptors (no path
 * walks), the bytes where the file system refuses links. */
static int S_copy_evidence(const hg_algpages *c, const S_job *j, const hg_sysalg *sa)
{
	const char *kinds[3];
	int dst[3] = { -1, -1, -1 }, k, rc = 0, nkinds = (int)hg_evidence_kinds(j->s, kinds);
	size_t i;

	for (k = 0; k < nkinds && rc == 0; k++) {
		char *dir = hg_xprintf("%s/data/%s/%s/%s", c->tmp, j->s->name, kinds[k], j->id);
		if (mkdir(dir, 0755) != 0 || (dst[k] = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
			rc = hg_error_set("%s: cannot create folder: %s", dir, strerror(errno));
		free(dir);
	}
	for (i = 0; i < sa->nfiles && rc == 0; i++) {
		const hg_evfile *f = &sa->files[i];
		int slot = strncmp(f->file, "kat/", 4) == 0 ? 0 :
			strncmp(f->file, "records/", 8) == 0 ? 1 : 2;
		const char *name = strrchr(f->file, '/') + 1;
		if (f->state == HG_SUM_MISSING)
			continue;
		if (sa->dir_fd[slot] < 0 || linkat(sa->dir_fd[slot], name, dst[slot], name, 0) != 0) {
			char *from = hg_xprintf("%s/%s", j->s->dir, f->file);
			char *to = hg_xprintf("%s/data/%s/%s", c->tmp, j->s->name, f->file);
			rc = hg_site_copy(from, to);
			free(from);
			free(to);
		}
	}
	for (k = 0; k < nkinds; k++)
		if (dst[k] >= 0)
			close(dst[k]);
	return rc;
}

/* The page's own inputs: reused from the cache when unchanged, else loaded (and kept loaded in
 * j->sa for the rendering) with the rows of its records. */
static int S_own(hg_algpages *c, S_job *j)
{
	hg_sysalg *sa;

	if (c->cache_in && hg_cache_page_load(S_cp(j), c->cache_in, j->s->name, j->id, 0) == 0) {
		hg_scanned *sc = NULL;
		size_t nsc = 0;
		int r = hg_ev_scan(&sc, &nsc, j->s, j->id) == 0 ? S_try_reuse(c, j, sc, nsc) : 0;
		hg_ev_scan_free(sc, nsc);
		j->have_cp = 1;
		if (r != 0)
			return r > 0 ? 0 : -1;
	}
	sa = calloc(1, sizeof(*sa));
	if (!sa || hg_sysalg_load(sa, c->d, j->s, j->id) != 0) {
		free(sa);
		return -1;
	}
	j->sa = sa;
	memset(j->kats, 0, sizeof(j->kats));
	hg_kat_tally(j->kats, sa->kats, sa->nkats);
	if (S_file_warnings(c, j, sa->files, sa->nfiles) != 0)
		return -1;
	S_own_key(c, j, sa->files, sa->nfiles, sa->sums, sa->nsums);
	S_remember_loaded(j, sa->files, sa->nfiles);
	return hg_figs_of(&j->figs, &j->nfigs, c->d, j->s, j->id, sa);
}

/* A page whose rows came from the cache with only those the spanning outputs read: all of them,
 * for its rendering or its cache entry (the spanning rows stay where the group's "On other
 * systems" tables read them). */
static int S_full_rows(hg_algpages *c, S_job *j)
{
	if (!j->figs_borrowed || j->cp->all || j->full)
		return 0;
	j->full = hg_cpage_new();
	if (hg_cache_page_load(j->full, c->cache_in, j->s->name, j->id, 1) != 0)
		return hg_error_set("%s/%s/%s: cannot read the page's figures back", c->cache_in,
			j->s->name, j->id);
	j->figs = j->full->figs;
	j->nfigs = j->full->nfigs;
	return 0;
}

/* The page, its chart, its CSV and its evidence copies (in place, only when its own inputs
 * changed: else the site's copies are still right); the page's stat into its cache entry. */
static int S_render(hg_algpages *c, S_job *j, const hg_sysfigs *all, size_t nall)
{
	const hg_entry *e = hg_data_entry(c->d, j->id);
	const hg_fig **rows = NULL;
	int chart = hg_figs_have_figures(j->figs, j->nfigs), rc;
	char *rel, *text = NULL, *name;
	size_t len, i;
	hg_page *p;

	if (S_full_rows(c, j) != 0)
		return -1;
	if (!j->sa) {
		j->sa = calloc(1, sizeof(hg_sysalg));
		if (!j->sa || hg_sysalg_load(j->sa, c->d, j->s, j->id) != 0)
			return -1;
	}
	p = hg_page_algorithm(c->d, j->s, j->id, j->sa, &c->yards[j->si], c->tx, all, nall, chart);
	rel = hg_xprintf("%s/%s", j->s->name, j->id);
	rc = hg_site_write_page(c->tmp, c->template, p, rel, HG_PAGE_MD);
	free(rel);
	hg_page_free(p);
	j->no_chart = !chart;
	if (rc == 0 && chart) {
		rc = hg_chart_page(&text, &len, j->s, j->id, e ? e->name : j->id, j->figs, j->nfigs,
			&c->yards[j->si]);
		if (rc == 0) {
			name = hg_xprintf("%s.svg", j->id);
			rc = hg_site_write_beside(c->tmp, j->s->name, name, text, len);
			free(name);
			free(text);
		}
	}
	rows = calloc(j->nfigs + 1, sizeof(*rows));
	for (i = 0; i < j->nfigs; i++)
		rows[i] = &j->figs[i];
	if (rc == 0 && (rc = hg_results_csv(&text, &len, rows, j->nfigs,
		&c->yards[j->si])) == 0) {
		name = hg_xprintf("%s.csv", j->id);
		rc = hg_site_write_beside(c->tmp, j->s->name, name, text, len);
		free(name);
		free(text);
	}
	free(rows);
	if (rc == 0 && !(c->in_place && j->own_reused))
		rc = S_copy_evidence(c, j, j->sa);
	if (rc == 0) {
		char *page = hg_xprintf("%s/%s/%s.html", c->tmp, j->s->name, j->id);
		struct stat st;
		if (stat(page, &st) == 0)
			hg_cpage_set_page(S_cp(j), &st);
		free(page);
	}
	return rc;
}

static void S_unload(S_job *j)
{
	if (j->sa) {
		hg_sysalg_clear(j->sa);
		free(j->sa);
		j->sa = NULL;
	}
}

/* The page's entry of the rebuild cache, unless the previous build's is still right; then the
 * rows the spanning outputs read kept, and the page's own figures let go. */
static int S_done(hg_algpages *c, S_job *j, int written)
{
	int rc = 0;
	size_t i, ndep = 0;
	hg_fig *dep = NULL;
	if ((written || j->files_changed || !j->have_cp) && (rc = S_full_rows(c, j)) == 0) {
		hg_cpage e = *S_cp(j);
		e.system = (char *)j->s->name;
		e.id = (char *)j->id;
		memcpy(e.key, j->key, 65);
		memcpy(e.own, j->own, 65);
		e.figs = j->figs;
		e.nfigs = j->nfigs;
		memcpy(e.kats, j->kats, sizeof(e.kats));
		rc = hg_cache_page_save(c->cache_out, &e, j->files, j->nfiles);
	}
	{
		size_t nspan, size, one, hsize;
		hg_fig *span = hg_figs_spanning(j->figs, j->nfigs, &nspan, &size);
		const hg_fig *h = hg_figs_headline(span, nspan);
		hg_fig *head = h ? hg_figs_spanning(h, 1, &one, &hsize) : NULL;
		hg_span_page_digests(j->span_cmp, j->span_all, span, nspan);
		if (rc == 0)
			rc = hg_spill_put(c->spill, &j->span, span, nspan, size);
		if (rc == 0 && head)
			rc = hg_spill_put(c->spill, &j->headline, head, one, hsize);
		free(span);
		free(head);
	}
	/* every row, when the page has them, goes to the downloads' part */
	if (!j->figs_borrowed) {
		dep = j->figs;
		ndep = j->nfigs;
	} else if (j->full && j->full->system) {
		dep = j->full->figs;
		ndep = j->full->nfigs;
		j->full->figs = NULL;
		j->full->nfigs = 0;
	}
	j->figs = NULL;
	j->nfigs = 0;
	if (rc == 0 && c->parts)
		rc = hg_parts_page_done(c->parts, j->si, j->ai, j->own, dep, ndep);
	else
		hg_figs_free(dep, ndep);
	hg_cpage_free(&j->cp);
	hg_cpage_free(&j->full);
	for (i = 0; i < j->nfiles; i++)
		free(j->files[i].path);
	free(j->files);
	j->files = NULL;
	j->nfiles = 0;
	return rc;
}

/* The algorithm's page across its n systems (g, their rows in all), unless every system's page
 * was left as it is: then nothing it shows changed either, and the site's stays. Every row of
 * each system is read for it. */
static int S_across(hg_algpages *c, S_job **g, hg_sysfigs *all, size_t n)
{
	size_t k, reused = 0;
	for (k = 0; k < n; k++)
		reused += g[k]->reuse != 0;
	if (reused == n)
		return 0;
	for (k = 0; k < n; k++) {
		if (S_full_rows(c, g[k]) != 0)
			return -1;
		all[k].figs = g[k]->figs;
		all[k].nfigs = g[k]->nfigs;
	}
	atomic_fetch_add(&c->across_rendered, 1);
	return hg_site_across(c->tmp, c->template, c->d, c->tx, g[0]->id, all, n);
}

/* One algorithm on every system that has it: the rows of each first, then each page, which
 * shows the others' rows in its "On other systems" table. */
static int S_run_group(hg_algpages *c, S_job **g)
{
	size_t n = 0, k;
	hg_sysfigs *all;
	int rc = 0;

	while (g[n])
		n++;
	all = calloc(n + 1, sizeof(*all));
	for (k = 0; k < n && rc == 0; k++) {
		if ((rc = S_own(c, g[k])) != 0)
			g[k]->error = hg_xstrdup(hg_error_last());
		all[k].system = g[k]->s;
		all[k].figs = g[k]->figs;
		all[k].nfigs = g[k]->nfigs;
		all[k].kats = g[k]->kats;
	}
	for (k = 0; k < n && rc == 0; k++) {
		S_job *j = g[k];
		hg_page_final_key(j->key, j->own, all, n);
		if (j->own_reused && strcmp(j->cp->key, j->key) == 0) {
			j->reuse = 1;
			continue;
		}
		if ((rc = S_render(c, j, all, n)) != 0)
			j->error = hg_xstrdup(hg_error_last());
		S_unload(j);
	}
	if (rc == 0 && n >= 2 && (rc = S_across(c, g, all, n)) != 0)
		g[0]->error = hg_xstrdup(hg_error_last());
	for (k = 0; k < n && rc == 0; k++)
		if ((rc = S_done(c, g[k], !g[k]->reuse)) != 0)
			g[k]->error = hg_xstrdup(hg_error_last());
	for (k = 0; k < n; k++)
		S_unload(g[k]);
	free(all);
	return rc;
}

static void *S_worker(void *arg)
{
	hg_algpages *c = arg;
	for (;;) {
		size_t i = atomic_fetch_add(&c->next, 1);
		if (i >= c->ngroups || atomic_load(&c->failed))
			break;
		if (S_run_group(c, c->groups[i]) != 0)
			atomic_store(&c->failed, 1);
	}
	hg_evidence_release();
	hg_gztwin_release();
	return NULL;
}

/* The spanning rows (headline 0) or the headline rows (1) of system k's jobs (every system's
 * when k is (size_t)-1), read back: the pointers to them in job order, then the blocks, in one
 * allocation; rows[m] comes from job at[m] when at is not NULL. */
static const hg_fig **S_read_back(const hg_algpages *c, size_t k, int headline, size_t *n,
	size_t *at)
{
	size_t i, m, total = 0, room = 0, head;
	const hg_fig **rows;
	char *to;
	for (i = 0; i < c->njobs; i++)
		if (k == (size_t)-1 || c->jobs[i].si == k) {
			const hg_spill_block *b = headline ? &c->jobs[i].headline : &c->jobs[i].span;
			total += b->n;
			room += hg_spill_room(b);
		}
	head = ((total + 1) * sizeof(*rows) + 15) / 16 * 16;
	rows = malloc(head + room);
	if (!rows) {
		hg_error_set("out of memory reading the pages' rows back");
		return NULL;
	}
	to = (char *)rows + head;
	*n = 0;
	for (i = 0; i < c->njobs; i++)
		if (k == (size_t)-1 || c->jobs[i].si == k) {
			const hg_spill_block *b = headline ? &c->jobs[i].headline : &c->jobs[i].span;
			hg_fig *block = (hg_fig *)to;
			if (hg_spill_get(c->spill, b, block) != 0) {
				free(rows);
				return NULL;
			}
			for (m = 0; m < b->n; m++) {
				if (at)
					at[*n] = i;
				rows[(*n)++] = &block[m];
			}
			to += hg_spill_room(b);
		}
	rows[*n] = NULL;
	return rows;
}

const hg_fig **hg_algpages_rows(const hg_algpages *c, size_t k, size_t *n)
{
	return S_read_back(c, k, 0, n, NULL);
}

void *hg_algpages_headlines(const hg_algpages *c, const hg_fig **headlines)
{
	size_t n, m, *at = calloc(c->njobs + 1, sizeof(size_t));
	const hg_fig **rows = at ? S_read_back(c, (size_t)-1, 1, &n, at) : NULL;
	if (!rows) {
		free(at);
		return NULL;
	}
	for (m = 0; m < n; m++)
		headlines[c->jobs[at[m]].si * c->nids + c->jobs[at[m]].ai] = rows[m];
	free(at);
	return rows;
}

void hg_algpages_kats(const hg_algpages *c, size_t k, long long out[HG_KAT_TALLY])
{
	size_t i, r;
	memset(out, 0, HG_KAT_TALLY * sizeof(*out));
	for (i = 0; i < c->njobs; i++)
		for (r = 0; c->jobs[i].si == k && r < HG_KAT_TALLY; r++)
			out[r] += c->jobs[i].kats[r];
}

void hg_algpages_stale(const hg_algpages *c, char ***v, size_t *n)
{
	size_t i;
	for (i = 0; i < c->njobs; i++)
		if (c->jobs[i].no_chart) {
			hg_strv_push(v, n, hg_xprintf("%s/%s.svg", c->jobs[i].s->name, c->jobs[i].id));
			hg_strv_push(v, n, hg_xprintf("%s/%s.svg.gz", c->jobs[i].s->name, c->jobs[i].id));
		}
}

/* The yardsticks of every system, before any page needs them. */
static int S_yardsticks(hg_algpages *c)
{
	const hg_data *d = c->d;
	size_t k;
	c->yards = calloc(d->nsystems + 1, sizeof(hg_yardsticks));
	c->nyards = c->yards ? d->nsystems : 0;
	c->yard_keys = calloc(d->nsystems + 1, 65);
	for (k = 0; k < d->nsystems; k++) {
		const hg_system *s = &d->systems[k];
		hg_sysalg sm3, sha2;
		int has_sm3 = hg_system_has(s, "sm3"), has_sha2 = hg_system_has(s, "sha2");
		memset(&sm3, 0, sizeof(sm3));
		memset(&sha2, 0, sizeof(sha2));
		if ((has_sm3 && hg_sysalg_load(&sm3, d, s, "sm3") != 0) ||
			(has_sha2 && hg_sysalg_load(&sha2, d, s, "sha2") != 0)) {
			hg_sysalg_clear(&sm3);
			hg_sysalg_clear(&sha2);
			return -1;
		}
		hg_yardsticks_of(&c->yards[k], has_sm3 ? &sm3 : NULL, has_sha2 ? &sha2 : NULL);
		hg_sysalg_clear(&sm3);
		hg_sysalg_clear(&sha2);
		hg_span_digest(c->yard_keys + 65 * k, "yardsticks", "", s, NULL, 0, &c->yards[k],
			NULL, 0);
	}
	return 0;
}

int hg_algpages_new(hg_algpages **out, const hg_algpages_in *in)
{
	hg_algpages *c = calloc(1, sizeof(*c));
	const hg_data *d = in->d;
	size_t i, j, k;

	*out = c;
	if (!c)
		return hg_error_set("out of memory");
	c->strict = in->strict;
	c->d = d;
	c->tx = in->tx;
	c->template = in->template;
	c->tmp = in->tmp;
	c->ids = in->ids;
	c->nids = in->nids;
	c->parts = in->parts;
	c->cache_in = in->cache_in;
	c->cache_out = in->cache_out;
	c->in_place = in->site != NULL;
	c->site = in->site;
	memcpy(c->global, in->global, sizeof(c->global));
	if (!(c->spill = hg_spill_open(c->tmp)))
		return -1;
	for (k = 0; k < d->nsystems; k++) {
		char *dir = hg_xprintf("%s/%s", c->cache_out, d->systems[k].name);
		int r = hg_mkdirs(dir);
		free(dir);
		if (r != 0)
			return -1;
		for (i = 0; i < c->nids; i++)
			if (hg_system_has(&d->systems[k], c->ids[i]))
				c->njobs++;
	}
	c->jobs = calloc(c->njobs + 1, sizeof(S_job));
	c->njobs = 0;
	for (k = 0; k < d->nsystems; k++)
		for (i = 0; i < c->nids; i++)
			if (hg_system_has(&d->systems[k], c->ids[i])) {
				S_job *jb = &c->jobs[c->njobs++];
				jb->s = &d->systems[k];
				jb->si = k;
				jb->ai = i;
				jb->id = c->ids[i];
			}
	/* the groups: one per algorithm, its pages in system order (the jobs are system by system) */
	{
		size_t *count = calloc(c->nids + 1, sizeof(size_t)), *slot = calloc(c->nids + 1,
			sizeof(size_t));
		S_job ***by = calloc(c->nids + 1, sizeof(S_job **));
		for (j = 0; j < c->njobs; j++)
			count[c->jobs[j].ai]++;
		for (i = 0; i < c->nids; i++)
			by[i] = count[i] ? calloc(count[i] + 1, sizeof(S_job *)) : NULL;
		for (j = 0; j < c->njobs; j++)
			by[c->jobs[j].ai][slot[c->jobs[j].ai]++] = &c->jobs[j];
		c->groups = calloc(c->nids + 1, sizeof(S_job **));
		for (i = 0; i < c->nids; i++)
			if (by[i]) {
				c->groups[c->ngroups++] = by[i];
				c->nacross += count[i] >= 2;
			}
		free(by);
		free(slot);
		free(count);
	}
	return S_yardsticks(c);
}

/* The evidence folders of group i's pages, for reading ahead. */
static size_t S_group_folders(void *ctx, size_t i, char **out, size_t max)
{
	const hg_algpages *c = ctx;
	S_job **g;
	size_t n = 0, k;
	for (g = c->groups[i]; *g; g++) {
		const char *kinds[3];
		size_t nkinds = hg_evidence_kinds((*g)->s, kinds);
		for (k = 0; k < nkinds && n < max; k++)
			out[n++] = hg_xprintf("%s/%s/%s", (*g)->s->dir, kinds[k], (*g)->id);
	}
	return n;
}

int hg_algpages_render(hg_algpages *c, int jobs, FILE *warnings, size_t *nwarnings)
{
	int nthreads = jobs > 0 ? jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t *threads;
	/* a clean build reads every evidence file: the kernel reads them ahead, many at once (a
	 * rebuild reads only the changed ones, and reads nothing ahead) */
	hg_prefetch *ahead = c->cache_in ? NULL : hg_prefetch_start(c->ngroups, 64, &c->next,
		S_group_folders, c);
	size_t i, k;

	if (nthreads < 1)
		nthreads = 1;
	if ((size_t)nthreads > c->ngroups)
		nthreads = c->ngroups ? (int)c->ngroups : 1;
	threads = calloc((size_t)nthreads, sizeof(pthread_t));
	for (i = 1; i < (size_t)nthreads; i++)
		if (pthread_create(&threads[i], NULL, S_worker, c) != 0)
			break;
	S_worker(c);
	for (k = 1; k < i; k++)
		pthread_join(threads[k], NULL);
	free(threads);
	hg_prefetch_stop(ahead);
	for (i = 0; i < c->njobs; i++) {
		if (c->jobs[i].warnings && warnings)
			fputs(c->jobs[i].warnings, warnings);
		*nwarnings += c->jobs[i].nwarnings;
		if (c->jobs[i].error)
			return hg_error_set("%s", c->jobs[i].error);
	}
	if (atomic_load(&c->failed))
		return hg_error_set("a page could not be rendered");
	return 0;
}

size_t hg_algpages_count(const hg_algpages *c)
{
	return c->njobs + c->nacross;
}

const char **hg_algpages_span_digests(const hg_algpages *c, size_t k, int compare, size_t *n)
{
	const char **v = malloc((c->njobs + 1) * sizeof(*v));
	size_t i;
	if (!v)
		abort();
	for (*n = i = 0; i < c->njobs; i++)
		if (c->jobs[i].si == k)
			v[(*n)++] = compare ? c->jobs[i].span_cmp : c->jobs[i].span_all;
	return v;
}

size_t hg_algpages_rendered(const hg_algpages *c)
{
	size_t i, n = 0;
	for (i = 0; i < c->njobs; i++)
		n += !c->jobs[i].reuse;
	return n + atomic_load(&c->across_rendered);
}

const hg_yardsticks *hg_algpages_yardsticks(const hg_algpages *c, size_t k)
{
	return &c->yards[k];
}

void hg_algpages_free(hg_algpages *c)
{
	size_t i, k;
	if (!c)
		return;
	for (i = 0; c->jobs && i < c->njobs; i++) {
		S_job *j = &c->jobs[i];
		free(j->warnings);
		free(j->error);
		S_unload(j);
		if (!j->figs_borrowed)
			hg_figs_free(j->figs, j->nfigs);
		hg_cpage_free(&j->cp);
		hg_cpage_free(&j->full);
		for (k = 0; k < j->nfiles; k++)
			free(j->files[k].path);
		free(j->files);
	}
	for (i = 0; i < c->ngroups; i++)
		free(c->groups[i]);
	free(c->groups);
	for (k = 0; k < c->nyards; k++)
		hg_yardsticks_clear(&c->yards[k]);
	free(c->yards);
	hg_spill_close(c->spill);
	free(c->yard_keys);
	free(c->jobs);
	free(c);
}
