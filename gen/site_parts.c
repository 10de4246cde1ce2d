/* site_parts.c — the downloads' parts as the algorithm pages complete them: each page's rows
 * are held until the last page of its part (HG_PART_ALGORITHMS of a system's algorithms, in id
 * order) is done, then the part is handed to the build with the digest of its pages' inputs; the
 * rows of a page the build did not render are read back from the rebuild cache, and only when
 * the part must be written. So a build never holds more than the parts in progress. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "sitewide.h"

typedef struct {
	size_t ai;            /* the algorithm's index in ids */
	char own[65];         /* the digest of its page's own inputs */
	hg_fig *figs;         /* its rows, deposited (NULL: read them back from the cache) */
	size_t nfigs;
} S_page;

typedef struct {
	size_t k, part;
	S_page *pages;
	size_t npages;
	atomic_size_t left;   /* pages not yet done */
} S_part;

struct hg_parts {
	const hg_data *d;
	const char *const *ids;
	const char *cache;    /* where the pages' cache entries are */
	const char *global;
	hg_part_fn fn;
	void *arg;
	S_part *parts;
	size_t nparts;
	size_t *first;        /* per system: the index of its first part */
	size_t nids;
	size_t *where;        /* [k * nids + ai]: 1 + part index * HG_PART_ALGORITHMS + place */
};

hg_parts *hg_parts_new(const hg_data *d, const char *const *ids, size_t nids, const char *cache,
	const char *global, hg_part_fn fn, void *arg)
{
	hg_parts *p = calloc(1, sizeof(*p));
	size_t k, i;
	p->d = d;
	p->ids = ids;
	p->cache = cache;
	p->global = global;
	p->fn = fn;
	p->arg = arg;
	p->first = calloc(d->nsystems + 1, sizeof(size_t));
	p->nids = nids;
	p->where = calloc(d->nsystems * nids + 1, sizeof(size_t));
	/* partition.c decides which part an algorithm lies in (and gives a system without
	 * algorithms one part, empty) */
	for (k = 0; k < d->nsystems; k++) {
		const hg_system *s = &d->systems[k];
		size_t np = hg_parts_count(s), m;
		p->first[k] = p->nparts;
		p->parts = realloc(p->parts, (p->nparts + np + 1) * sizeof(S_part));
		for (m = 0; m < np; m++) {
			S_part *q = &p->parts[p->nparts + m];
			memset(q, 0, sizeof(*q));
			q->k = k;
			q->part = m + 1;
			q->pages = calloc(HG_PART_ALGORITHMS, sizeof(S_page));
		}
		p->nparts += np;
		for (i = 0; i < nids; i++) {
			size_t part = hg_part_of(s, ids[i]);
			S_part *q;
			if (!part)
				continue;
			q = &p->parts[p->first[k] + part - 1];
			p->where[k * nids + i] = 1 + (p->first[k] + part - 1) * HG_PART_ALGORITHMS +
				q->npages;
			q->pages[q->npages++].ai = i;
		}
	}
	p->first[d->nsystems] = p->nparts;
	for (i = 0; i < p->nparts; i++)
		atomic_init(&p->parts[i].left, p->parts[i].npages);
	return p;
}

/* The part of system k that holds algorithm ai, and the page's place in it. */
static S_part *S_find(hg_parts *p, size_t k, size_t ai, S_page **page)
{
	size_t w = k < p->d->nsystems && ai < p->nids ? p->where[k * p->nids + ai] : 0;
	if (!w)
		return NULL;
	*page = &p->parts[(w - 1) / HG_PART_ALGORITHMS].pages[(w - 1) % HG_PART_ALGORITHMS];
	return &p->parts[(w - 1) / HG_PART_ALGORITHMS];
}

/* The digest of what a part shows: the generator, its system (system.json and its machine-speed
 * readings), and its pages' own inputs. */
static void S_digest(char out[65], const hg_parts *p, const S_part *q)
{
	const hg_system *s = &p->d->systems[q->k];
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char md[32];
	unsigned int mdlen = 32;
	size_t i;
	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	EVP_DigestUpdate(ctx, p->global, strlen(p->global) + 1);
	EVP_DigestUpdate(ctx, s->name, strlen(s->name) + 1);
	EVP_DigestUpdate(ctx, s->system_sha256, 64);
	/* the part names the system's machine-speed readings and their SHA-256 */
	if (s->sentinel && s->sentinel->traced)
		EVP_DigestUpdate(ctx, s->sentinel->file.sha256, 64);
	for (i = 0; i < q->npages; i++) {
		const char *id = p->ids[q->pages[i].ai];
		EVP_DigestUpdate(ctx, id, strlen(id) + 1);
		EVP_DigestUpdate(ctx, q->pages[i].own, 64);
	}
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
}

int hg_parts_page_done(hg_parts *p, size_t k, size_t ai, const char *own, hg_fig *figs,
	size_t nfigs)
{
	S_page *page = NULL;
	S_part *q = S_find(p, k, ai, &page);
	char digest[65];
	size_t i;
	int rc;

	if (!q) {
		hg_figs_free(figs, nfigs);
		return hg_error_set("%s on %s: not in any part of the downloads", p->ids[ai],
			p->d->systems[k].name);
	}
	memcpy(page->own, own, 65);
	page->figs = figs;
	page->nfigs = nfigs;
	if (atomic_fetch_sub(&q->left, 1) != 1)
		return 0;
	/* the last page of the part: every other page's deposit is visible after the fetch_sub */
	S_digest(digest, p, q);
	rc = p->fn(p->arg, q->k, q->part, p->ids[q->pages[0].ai],
		p->ids[q->pages[q->npages - 1].ai], q->npages, digest, p);
	for (i = 0; i < q->npages; i++) {
		hg_figs_free(q->pages[i].figs, q->pages[i].nfigs);
		q->pages[i].figs = NULL;
		q->pages[i].nfigs = 0;
	}
	return rc;
}

int hg_parts_finish(hg_parts *p)
{
	size_t i;
	char digest[65];
	int rc = 0;
	for (i = 0; i < p->nparts && rc == 0; i++)
		if (!p->parts[i].npages) {
			S_digest(digest, p, &p->parts[i]);
			rc = p->fn(p->arg, p->parts[i].k, 1, NULL, NULL, 0, digest, p);
		}
	return rc;
}

int hg_parts_rows(hg_parts *p, size_t k, size_t part, hg_fig **out, size_t *n)
{
	S_part *q = &p->parts[p->first[k] + part - 1];
	size_t i, m;
	*out = NULL;
	*n = 0;
	for (i = 0; i < q->npages; i++) {
		S_page *pg = &q->pages[i];
		hg_cpage cp;
		hg_fig *figs = pg->figs;
		size_t nf = pg->nfigs;
		memset(&cp, 0, sizeof(cp));
		if (!figs && hg_cache_page_load(&cp, p->cache, p->d->systems[k].name, p->ids[pg->ai],
				1) != 0) {
			hg_figs_free(*out, *n);
			*out = NULL;
			*n = 0;
			return hg_error_set("%s/%s/%s: cannot read the page's figures back", p->cache,
				p->d->systems[k].name, p->ids[pg->ai]);
		}
		if (!figs) {
			figs = cp.figs;
			nf = cp.nfigs;
			cp.figs = NULL;
			cp.nfigs = 0;
			hg_cpage_clear(&cp);
		}
		*out = realloc(*out, (*n + nf + 1) * sizeof(hg_fig));
		for (m = 0; m < nf; m++)
			(*out)[(*n)++] = figs[m];
		free(figs); /* the rows' strings now belong to *out */
		pg->figs = NULL;
		pg->nfigs = 0;
	}
	return 0;
}

void hg_parts_free(hg_parts *p)
{
	size_t i, m;
	if (!p)
		return;
	for (i = 0; i < p->nparts; i++) {
		for (m = 0; m < p->parts[i].npages; m++)
			hg_figs_free(p->parts[i].pages[m].figs, p->parts[i].pages[m].nfigs);
		free(p->parts[i].pages);
	}
	free(p->parts);
	free(p->first);
	free(p->where);
	free(p);
}
