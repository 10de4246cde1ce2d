/* hashgen.h — the site generator's library as its command sees it: the conductor that builds the
 * site of data/ (site.c) and the check of a published one against it (check.c); errors come from
 * the ground floor (genutil.h). */
#ifndef HASHGEN_H
#define HASHGEN_H

#include <stddef.h>
#include <stdio.h>

#include "genutil.h"

#define HG_VERSION "0.1.0"

/* ---- the site (site.c) ---- */

typedef struct {
	const char *data_dir, *templates_dir, *out_dir;
	int strict;
	int jobs;              /* worker threads; 0: one per CPU */
	const char *generator; /* footer text naming the generator; NULL: this version */
	const char *base_url;  /* where the site is published, for sitemap.xml; NULL: relative */
	FILE *warnings;        /* stderr */
	int render_only;       /* render into out_dir, which must not exist: no cache, no swap */
} hg_site_opts;

/* The steps of a build, in order, as --timings names them (site.c). */
#define HG_NSTEPS 5
extern const char *const hg_site_steps[HG_NSTEPS];

typedef struct {
	size_t pages, systems, algorithms, evidence_files, warnings;
	int rebuilt;      /* in place: the previous site's files left where the same */
	size_t rendered;  /* algorithm pages rendered (all of them unless rebuilt) */
	size_t replaced;  /* rebuilt: files put in place of the site's */
	size_t swapped;   /* rebuilt: a page's evidence folders put in place whole */
	size_t removed;   /* rebuilt: files the build no longer makes, removed */
	double wall[HG_NSTEPS], cpu[HG_NSTEPS]; /* seconds per step; cpu: of every thread */
} hg_site_stats;

int hg_site_build(hg_site_stats *out, const hg_site_opts *o);

/* ---- checking a published site (check.c) ---- */

/* Render the site of o (data_dir, templates_dir, generator, base_url...) into a temporary folder
 * and compare it with o->out_dir byte for byte, then verify every evidence copy under
 * o->out_dir/data/<system>/ against that folder's SHA256SUMS and every part of the downloads
 * against results-index.json (its size and SHA-256). Writes one line per problem to
 * report, sorted by path ("hashgen: site/x86_1/sha2.html differs"), or one line saying the site
 * matches; *out gets the number of problems. o->out_dir is never modified and the temporary
 * folder is always removed. 0 when the check ran, whatever it found; -1 when it could not. */
int hg_site_check(size_t *out, const hg_site_opts *o, FILE *report);

#endif
