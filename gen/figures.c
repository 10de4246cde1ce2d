/* figures.c — the figures as data: every timed record as one row of raw figures at full precision
 * (the rows the downloads, the comparison pages, the charts and the rebuild cache share), the
 * records in page order, a record's derived figures, spread and headline, the ratio of two
 * headlines (paired with the campaign's anchor or not), the yardsticks. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "figures.h"

const unsigned long long hg_sizes[HG_NSIZES] = { 32, 128, 512, 1024, 4096, 8192, 16384, 65536 };

static char *S_dup(const char *s)
{
	return s ? hg_xstrdup(s) : NULL;
}

void hg_fig_clear(hg_fig *f)
{
	if (!f)
		return;
	free(f->system);
	free(f->algorithm);
	free(f->instance);
	free(f->implementation);
	if (f->more) {
		free(f->more->status);
		free(f->more->record);
		free(f->more);
	}
	free(f->kat);
	free(f->headline_estimator);
	free(f->anchor_instance);
	free(f->anchor_implementation);
	free(f->supercop_path);
	free(f->compiler);
	memset(f, 0, sizeof(*f));
}

/* A row's more before anything is known of it: no samples, nothing recorded. */
static const hg_fig_more S_more_none = { .median_cycles = -1, .spread_pct = -1,
	.baseline_rss_kib = -1, .heap_allocations = -1, .mmap_bytes = -1, .text_bytes = -1,
	.data_bytes = -1 };

hg_fig_more *hg_fig_more_of(hg_fig *f)
{
	if (!f->more) {
		if (!(f->more = malloc(sizeof(hg_fig_more))))
			abort();
		*f->more = S_more_none;
	}
	return f->more;
}

const hg_fig_more *hg_fig_more_get(const hg_fig *f)
{
	return f->more ? f->more : &S_more_none;
}

void hg_fig_set_record(hg_fig *f, char *record, const char *sha256)
{
	hg_fig_more *x = hg_fig_more_of(f);
	size_t len;
	free(x->record);
	x->record = record;
	x->record_sha256 = NULL;
	if (!record || !sha256 || strlen(sha256) != 64)
		return;
	len = strlen(record) + 1;
	if (!(x->record = realloc(record, len + 65)))
		abort();
	x->record_sha256 = memcpy(x->record + len, sha256, 65);
}

void hg_figs_free(hg_fig *figs, size_t n)
{
	size_t i;
	for (i = 0; figs && i < n; i++)
		hg_fig_clear(&figs[i]);
	free(figs);
}

int hg_fig_xof(const hg_fig *f)
{
	return !f->supercop_path && (strcasestr(f->instance, "xof") != NULL ||
		strcasestr(f->instance, "shake") != NULL);
}

static int S_cmp_evfile(const void *key, const void *elem)
{
	return strcmp(key, ((const hg_evfile *)elem)->file);
}

/* The KAT result of a record: its own, else its library's summary. */
static const char *S_kat_of(const hg_record *r, const hg_sysalg *sa)
{
	size_t i;
	if (r->kat)
		return r->kat;
	for (i = 0; i < sa->nkats; i++)
		if (strcmp(sa->kats[i].instance, r->instance) == 0 &&
			strcmp(sa->kats[i].implementation, r->implementation) == 0)
			return sa->kats[i].result;
	return NULL;
}

/* The record's headline and its interval into its row. */
static void S_headline_to_fig(hg_fig *f, const hg_record *r, const hg_figures_t *fg)
{
	hg_headline_fig h;
	hg_headline_of(&h, r, fg);
	f->headline_cycles = h.cycles;
	f->headline_cpb = h.cpb;
	f->headline_estimator = hg_xstrdup(h.estimator);
	f->headline_iv = h.iv;
	f->anchor_instance = S_dup(h.anchor_instance);
	f->anchor_implementation = S_dup(h.anchor_implementation);
	f->pair = h.pair;
}

int hg_figs_of(hg_fig **out, size_t *n, const hg_data *d, const hg_system *s, const char *id,
	const hg_sysalg *sa)
{
	hg_record **recs = hg_records_sorted(sa, hg_data_entry(d, id));
	hg_fig *figs = calloc(sa->nrecords + 1, sizeof(hg_fig));
	size_t i;

	if (!figs) {
		free(recs);
		return hg_error_set("out of memory");
	}
	for (i = 0; i < sa->nrecords; i++) {
		const hg_record *r = recs[i];
		const hg_evfile *ev = bsearch(r->file, sa->files, sa->nfiles, sizeof(hg_evfile),
			S_cmp_evfile);
		hg_fig *f = &figs[i];
		hg_fig_more *x = hg_fig_more_of(f);
		hg_figures_t fg;
		double median, pct;

		f->system = hg_xstrdup(s->name);
		f->unit = hg_unit_name(s);
		f->algorithm = hg_xstrdup(id);
		f->instance = hg_xstrdup(r->instance);
		f->implementation = hg_xstrdup(r->implementation);
		x->status = hg_xstrdup(r->status);
		f->kat = S_dup(S_kat_of(r, sa));
		hg_fig_set_record(f, hg_xprintf("data/%s/%s", s->name, r->file), ev ? ev->sha256 :
			NULL);
		f->message_bytes = r->message_bytes;
		f->output_bytes = r->output_bytes;
		f->supercop_path = S_dup(r->sc_path);
		f->compiler = S_dup(r->sc_compiler);
		x->rounds = r->ntrials;
		if (strcmp(r->status, "ok") == 0 && hg_record_figures(&fg, r) == 0) {
			f->ok = 1;
			x->mean_cycles = fg.mean_cycles;
			x->cycles_per_byte = fg.cycles_per_byte;
			x->mean_ns = fg.mean_ns;
			f->mb_per_s = fg.mbps;
			x->calls = fg.n;
			S_headline_to_fig(f, r, &fg);
		} else {
			hg_iv_none(&f->headline_iv);
		}
		if (hg_record_spread(r, &median, &pct) == 0) {
			x->median_cycles = median;
			x->spread_pct = pct;
			x->unstable = pct > s->spread_limit_pct;
		}
		f->disturbed = r->disturbed;
		f->static_bytes = r->static_bytes;
		x->baseline_rss_kib = r->baseline_rss_kib;
		f->peak_rss_kib = r->peak_rss_kib;
		hg_memory_to_fig(f, r);
	}
	free(recs);
	*out = figs;
	*n = sa->nrecords;
	return 0;
}

/* ---- a record's figures ---- */

/* Position of an instance in the catalog's parameter sets (unknown ones last, by name). */
static int S_rank(const hg_entry *e, const char *instance)
{
	int i;
	if (!e)
		return 1 << 20;
	for (i = 0; e->parameter_sets[i]; i++)
		if (strcmp(e->parameter_sets[i], instance) == 0)
			return i;
	return 1 << 20;
}

/* the catalog entry whose parameter-set order the sorts follow (one per rendering thread) */
static _Thread_local const hg_entry *S_sort_entry;

static int S_cmp_inst(const char *ia, const char *ma, const char *ib, const char *mb)
{
	int ra = S_rank(S_sort_entry, ia), rb = S_rank(S_sort_entry, ib), c;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if ((c = strcmp(ia, ib)) != 0)
		return c;
	c = (strcmp(mb, "reference") == 0) - (strcmp(ma, "reference") == 0);
	return c ? c : strcmp(ma, mb);
}

static int S_cmp_rec(const void *x, const void *y)
{
	const hg_record *a = *(hg_record *const *)x, *b = *(hg_record *const *)y;
	int c = S_cmp_inst(a->instance, a->implementation, b->instance, b->implementation);
	if (c)
		return c;
	return a->message_bytes < b->message_bytes ? -1 : a->message_bytes > b->message_bytes;
}

static int S_cmp_kat(const void *x, const void *y)
{
	const hg_kat *a = *(hg_kat *const *)x, *b = *(hg_kat *const *)y;
	return S_cmp_inst(a->instance, a->implementation, b->instance, b->implementation);
}


/* Pointers to the n items of size bytes at items, sorted by cmp in the order of e's parameter
 * sets; the caller frees the array (the items stay where they are). */
static void **S_sorted(const void *items, size_t n, size_t size, const hg_entry *e,
	int (*cmp)(const void *, const void *))
{
	void **v = malloc((n + 1) * sizeof(*v));
	size_t i;
	if (!v) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	for (i = 0; i < n; i++)
		v[i] = (char *)items + i * size;
	S_sort_entry = e;
	qsort(v, n, sizeof(*v), cmp);
	return v;
}

hg_record **hg_records_sorted(const hg_sysalg *sa, const hg_entry *e)
{
	return (hg_record **)S_sorted(sa->records, sa->nrecords, sizeof(hg_record), e, S_cmp_rec);
}

hg_kat **hg_kats_sorted(const hg_sysalg *sa, const hg_entry *e)
{
	return (hg_kat **)S_sorted(sa->kats, sa->nkats, sizeof(hg_kat), e, S_cmp_kat);
}

/* What one counter tick of r is in the unit of its pages: its system's declared conversion,
 * else 1 (the figures are as read). Every figure derived from a record's counter goes through
 * it: the guide's means, the median of the samples and the headline. */
static double S_per_tick(const hg_record *r)
{
	return r->cycles_per_tick > 0 ? r->cycles_per_tick : 1;
}

int hg_record_figures(hg_figures_t *f, const hg_record *r)
{
	unsigned long long it[64] = { 0 }, cy[64] = { 0 }, ns[64] = { 0 };
	unsigned long long *pit = it, *pcy = cy, *pns = ns;
	size_t i;
	int rc;
	if (r->ntrials > 64) {
		pit = malloc(r->ntrials * sizeof(*pit));
		pcy = malloc(r->ntrials * sizeof(*pcy));
		pns = malloc(r->ntrials * sizeof(*pns));
	}
	for (i = 0; i < r->ntrials; i++) {
		pit[i] = r->trials[i].iterations;
		pcy[i] = r->trials[i].cycles;
		pns[i] = r->trials[i].ns;
	}
	rc = hg_figures(f, pit, pcy, pns, r->ntrials, r->message_bytes);
	if (rc == 0) {
		/* ticks of a counter that is not the core's clock, at the declared core clock */
		f->mean_cycles *= S_per_tick(r);
		f->cycles_per_byte *= S_per_tick(r);
	}
	if (pit != it) {
		free(pit);
		free(pcy);
		free(pns);
	}
	return rc;
}

static int S_cmp_ull(const void *x, const void *y)
{
	unsigned long long a = *(const unsigned long long *)x, b = *(const unsigned long long *)y;
	return a < b ? -1 : a > b;
}

/* Median of the single-call samples and their interquartile range as a percentage of it (the
 * quartiles the campaign uses: sorted[n/4], sorted[3n/4], sorted[n/2]). */
int hg_record_spread(const hg_record *r, double *median, double *pct)
{
	unsigned long long *v;
	size_t n = r->nsamples;
	if (n < 4)
		return -1;
	v = malloc(n * sizeof(*v));
	memcpy(v, r->samples, n * sizeof(*v));
	qsort(v, n, sizeof(*v), S_cmp_ull);
	*median = (double)v[n / 2];
	*pct = *median > 0 ? ((double)v[(3 * n) / 4] - (double)v[n / 4]) / *median * 100 : 0;
	*median *= S_per_tick(r);
	free(v);
	return 0;
}

void hg_headline_of(hg_headline_fig *out, const hg_record *r, const hg_figures_t *mean)
{
	const hg_interval *iv = &r->headline.interval;
	const hg_rec_paired *pd = &r->headline.paired;
	double k = S_per_tick(r);

	memset(out, 0, sizeof(*out));
	hg_iv_none(&out->iv);
	out->disturbed = r->disturbed;
	out->bytes = r->message_bytes;
	if (!r->headline.present) {
		out->cycles = mean->mean_cycles;
		out->cpb = mean->cycles_per_byte;
		out->estimator = HG_ESTIMATOR_MEAN;
		out->mean = 1;
		return;
	}
	/* the ticks of a counter that is not the core's clock, as cycles where a clock was declared */
	out->cycles = r->headline.cycles_per_call * k;
	out->cpb = r->headline.cycles_per_byte * k;
	out->estimator = r->headline.estimator;
	if (pd->present) {
		out->anchor_instance = pd->anchor_instance;
		out->anchor_implementation = pd->anchor_implementation;
		out->pair.ratio = pd->ratio;
		out->pair.low = pd->low;
		out->pair.high = pd->high;
		out->pair.seed = pd->campaign_seed;
		out->pair.self = pd->self;
		out->pair.wide = pd->state == HG_IV_WIDE;
	}
	if (iv->state == HG_IV_NONE)
		return;
	out->iv.state = iv->state;
	out->iv.low_cycles = iv->low_cycles_per_call * k;
	out->iv.high_cycles = iv->high_cycles_per_call * k;
	out->iv.low_cpb = iv->low_cycles_per_byte * k;
	out->iv.high_cpb = iv->high_cycles_per_byte * k;
	out->iv.half_pct = iv->half_width_pct;
	out->iv.target_pct = iv->target_pct;
}

void hg_iv_none(hg_iv *iv)
{
	iv->state = HG_IV_NONE;
	iv->low_cycles = iv->high_cycles = iv->low_cpb = iv->high_cpb = -1;
	iv->half_pct = iv->target_pct = -1;
}

double hg_headline_half(const hg_headline_fig *h, int per_call)
{
	if (h->iv.state == HG_IV_NONE)
		return -1;
	/* the half-width as recorded: a low bound clamped at zero does not narrow it */
	return (per_call ? h->cycles : h->cpb) * h->iv.half_pct / 100;
}

void hg_headline_of_fig(hg_headline_fig *out, const hg_fig *f)
{
	memset(out, 0, sizeof(*out));
	out->cycles = f->headline_cycles;
	out->cpb = f->headline_cpb;
	out->estimator = f->headline_estimator;
	out->mean = !f->headline_estimator || strcmp(f->headline_estimator, HG_ESTIMATOR_MEAN) == 0;
	out->iv = f->headline_iv;
	out->disturbed = f->disturbed;
	out->bytes = f->message_bytes;
	out->anchor_instance = f->anchor_instance;
	out->anchor_implementation = f->anchor_implementation;
	out->pair = f->pair;
}

/* The interval of a headline per byte, or its point when it has none. */
void hg_headline_bounds(const hg_headline_fig *h, double *lo, double *hi)
{
	*lo = h->iv.state != HG_IV_NONE ? h->iv.low_cpb : h->cpb;
	*hi = h->iv.state != HG_IV_NONE ? h->iv.high_cpb : h->cpb;
}

/* ---- paired ratios ---- */

int hg_paired(const hg_headline_fig *a, const hg_headline_fig *b)
{
	return a->anchor_instance && a->anchor_implementation && b->anchor_instance &&
		b->anchor_implementation && a->pair.seed == b->pair.seed && a->bytes == b->bytes &&
		strcmp(a->anchor_instance, b->anchor_instance) == 0 &&
		strcmp(a->anchor_implementation, b->anchor_implementation) == 0;
}

/* The quotient of two paired ratios to one anchor with its interval: the relative half-widths of
 * the two combined in quadrature in log space (the errors of a's pairs and of b's are
 * independent); exact when either is the anchor's own figure. */
static void S_pair_ratio(hg_ratio *out, const hg_pair *a, const hg_pair *b)
{
	if (b->self) {
		out->ratio = a->ratio;
		out->low = a->low;
		out->high = a->high;
	} else if (a->self) {
		out->ratio = 1 / b->ratio;
		out->low = 1 / b->high;
		out->high = 1 / b->low;
	} else {
		double alo = log(a->ratio / a->low), ahi = log(a->high / a->ratio);
		double blo = log(b->ratio / b->low), bhi = log(b->high / b->ratio);
		out->ratio = a->ratio / b->ratio;
		out->low = out->ratio / exp(sqrt(alo * alo + bhi * bhi));
		out->high = out->ratio * exp(sqrt(ahi * ahi + blo * blo));
	}
	out->paired = 1;
	out->wide = a->wide || b->wide;
}

int hg_pair_faster(const hg_pair *a, const hg_pair *b)
{
	hg_ratio r;
	/* the quadrature lies between the larger of the two log half-widths and their sum: a's high
	 * end below b's low one is enough, below b's ratio (and a's ratio below b's low end) needed.
	 * hg_ranks counts the first by a binary search, the second one by one. */
	if (a->high < b->low)
		return 1;
	if (!(a->high < b->ratio && a->ratio < b->low))
		return 0;
	S_pair_ratio(&r, a, b);
	return r.high < 1;
}

int hg_within_noise(const hg_headline_fig *a, const hg_headline_fig *b)
{
	double alo, ahi, blo, bhi;
	if (hg_paired(a, b))
		return !hg_pair_faster(&a->pair, &b->pair) && !hg_pair_faster(&b->pair, &a->pair);
	if (a->iv.state == HG_IV_NONE && b->iv.state == HG_IV_NONE)
		return 0;
	hg_headline_bounds(a, &alo, &ahi);
	hg_headline_bounds(b, &blo, &bhi);
	return alo <= bhi && blo <= ahi;
}

/* Are two headlines the same figure (a yardstick's own row)? */
static int S_same_figure(const hg_headline_fig *x, const hg_headline_fig *y)
{
	return x->cpb == y->cpb && x->bytes == y->bytes && x->iv.state == y->iv.state &&
		x->iv.low_cpb == y->iv.low_cpb && x->iv.high_cpb == y->iv.high_cpb &&
		!x->anchor_instance == !y->anchor_instance && x->pair.ratio == y->pair.ratio &&
		x->pair.low == y->pair.low && x->pair.high == y->pair.high;
}

int hg_ratio_of(hg_ratio *out, const hg_headline_fig *x, const hg_headline_fig *ref)
{
	out->ratio = out->low = out->high = -1;
	out->same = out->paired = out->wide = 0;
	if (x->cpb < 0 || !(ref->cpb > 0))
		return -1;
	out->same = S_same_figure(x, ref);
	if (hg_paired(x, ref)) {
		if (!out->same)
			S_pair_ratio(out, &x->pair, &ref->pair);
		else /* a yardstick's own row: exactly 1, its pairs' interval too */
			out->ratio = out->low = out->high = 1;
		out->paired = 1;
		return 0;
	}
	out->ratio = out->same ? 1 : x->cpb / ref->cpb;
	if (x->iv.state == HG_IV_NONE || ref->iv.state == HG_IV_NONE || x->iv.low_cpb < 0 ||
		!(ref->iv.low_cpb > 0))
		return 0; /* earlier evidence, or a bound clamped at zero: no interval */
	out->low = out->same ? 1 : x->iv.low_cpb / ref->iv.high_cpb;
	out->high = out->same ? 1 : x->iv.high_cpb / ref->iv.low_cpb;
	return 0;
}

int hg_faster_beyond_noise(const hg_headline_fig *a, const hg_headline_fig *b)
{
	double alo, ahi, blo, bhi;
	if (hg_paired(a, b))
		return hg_pair_faster(&a->pair, &b->pair);
	hg_headline_bounds(a, &alo, &ahi);
	hg_headline_bounds(b, &blo, &bhi);
	return ahi < blo;
}

void hg_memory_to_fig(hg_fig *f, const hg_record *r)
{
	hg_fig_more *x = hg_fig_more_of(f);
	f->stack_bytes = r->memory.stack_bytes;
	f->heap_peak_bytes = r->memory.heap_peak_bytes;
	x->heap_allocations = r->memory.heap_allocations;
	x->mmap_bytes = r->memory.mmap_bytes;
	x->text_bytes = r->memory.text_bytes;
	x->data_bytes = r->memory.data_bytes;
}


/* ---- the yardsticks ---- */

const char *const hg_yard_names[HG_NYARD] = { "SM3 (reference)", "SM3 (OpenSSL)",
	"SHA-256 (reference)", "SHA-256 (OpenSSL)" };

/* No headline: cpb and cycles -1, no interval. */
static void S_no_headline(hg_headline_fig *out)
{
	memset(out, 0, sizeof(*out));
	hg_iv_none(&out->iv);
	out->cycles = out->cpb = -1;
}

/* The headline of a record when it is instance:impl at bytes and measured (0), else -1. */
static int S_headline_match(hg_headline_fig *out, const hg_record *r, const char *instance,
	const char *impl, unsigned long long bytes)
{
	hg_figures_t f;
	if (r->message_bytes == bytes && strcmp(r->instance, instance) == 0 &&
		strcmp(r->implementation, impl) == 0 && strcmp(r->status, "ok") == 0 &&
		hg_record_figures(&f, r) == 0) {
		hg_headline_of(out, r, &f);
		return 0;
	}
	return -1;
}

static void S_yard_of(hg_headline_fig *out, const hg_sysalg *sa, const char *instance,
	const char *impl, unsigned long long bytes)
{
	size_t i;
	int rc = -1;
	S_no_headline(out);
	for (i = 0; sa && i < sa->nrecords && rc != 0; i++)
		rc = S_headline_match(out, &sa->records[i], instance, impl, bytes);
	out->estimator = NULL; /* the records are not kept: the anchor's names are copied */
	out->anchor_instance = S_dup(out->anchor_instance);
	out->anchor_implementation = S_dup(out->anchor_implementation);
}

void hg_yardsticks_of(hg_yardsticks *out, const hg_sysalg *sm3, const hg_sysalg *sha2)
{
	size_t k;
	for (k = 0; k < HG_NSIZES; k++) {
		S_yard_of(&out->at[0][k], sm3, "SM3", "reference", hg_sizes[k]);
		S_yard_of(&out->at[1][k], sm3, "SM3", "openssl", hg_sizes[k]);
		S_yard_of(&out->at[2][k], sha2, "SHA-256", "reference", hg_sizes[k]);
		S_yard_of(&out->at[3][k], sha2, "SHA-256", "openssl", hg_sizes[k]);
	}
}

void hg_yardsticks_clear(hg_yardsticks *y)
{
	size_t k, i;
	for (k = 0; y && k < HG_NYARD; k++)
		for (i = 0; i < HG_NSIZES; i++) {
			/* the yardsticks' own copies (S_yard_of) */
			free((char *)y->at[k][i].anchor_instance);
			free((char *)y->at[k][i].anchor_implementation);
			y->at[k][i].anchor_instance = y->at[k][i].anchor_implementation = NULL;
		}
}

int hg_records_headline_at(hg_headline_fig *out, hg_record *const *recs, size_t n,
	const hg_record *like, unsigned long long bytes)
{
	size_t i;
	int rc = -1;
	S_no_headline(out);
	for (i = 0; i < n && rc != 0; i++)
		rc = S_headline_match(out, recs[i], like->instance, like->implementation, bytes);
	return rc;
}

const hg_fig *hg_figs_headline(const hg_fig *figs, size_t n)
{
	const hg_fig *best = NULL;
	size_t i;
	for (i = 0; i < n; i++)
		if (strcmp(figs[i].implementation, "reference") == 0 && figs[i].message_bytes == 65536 &&
			figs[i].ok)
			return &figs[i];
	/* a SUPERCOP primitive has no "reference": its fastest implementation, as eBASH shows it */
	for (i = 0; i < n; i++)
		if (figs[i].supercop_path && figs[i].message_bytes == 65536 && figs[i].ok &&
			(!figs[i].kat || strcmp(figs[i].kat, "PASS") == 0) &&
			(!best || figs[i].headline_cpb < best->headline_cpb))
			best = &figs[i];
	return best;
}
