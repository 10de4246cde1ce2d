/* figures.c — every timed record as one row of raw figures at full precision, the rows the
 * downloads, the comparison pages, the charts and the rebuild cache share. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "headline.h"
#include "memory.h"
#include "pages.h"

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
	free(f->status);
	free(f->kat);
	free(f->record);
	free(f->headline_estimator);
	memset(f, 0, sizeof(*f));
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
	return strcasestr(f->instance, "xof") != NULL || strcasestr(f->instance, "shake") != NULL;
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
		hg_figures_t fg;
		double median, pct;

		f->system = hg_xstrdup(s->name);
		f->algorithm = hg_xstrdup(id);
		f->instance = hg_xstrdup(r->instance);
		f->implementation = hg_xstrdup(r->implementation);
		f->status = hg_xstrdup(r->status);
		f->kat = S_dup(S_kat_of(r, sa));
		f->record = hg_xprintf("data/%s/%s", s->name, r->file);
		if (ev)
			memcpy(f->record_sha256, ev->sha256, 65);
		f->message_bytes = r->message_bytes;
		f->output_bytes = r->output_bytes;
		f->rounds = r->ntrials;
		f->median_cycles = f->spread_pct = -1;
		if (strcmp(r->status, "ok") == 0 && hg_record_figures(&fg, r) == 0) {
			f->ok = 1;
			f->mean_cycles = fg.mean_cycles;
			f->cycles_per_byte = fg.cycles_per_byte;
			f->mean_ns = fg.mean_ns;
			f->mb_per_s = fg.mbps;
			f->calls = fg.n;
			{
				hg_headline_fig h;
				hg_headline_of(&h, r, &fg);
				f->headline_cycles = h.cycles;
				f->headline_cpb = h.cpb;
				f->headline_estimator = hg_xstrdup(h.estimator);
			}
		}
		if (hg_record_spread(r, &median, &pct) == 0) {
			f->median_cycles = median;
			f->spread_pct = pct;
			f->unstable = pct > s->spread_limit_pct;
		}
		f->disturbed = r->disturbed;
		f->static_bytes = r->static_bytes;
		f->baseline_rss_kib = r->baseline_rss_kib;
		f->peak_rss_kib = r->peak_rss_kib;
		hg_memory_to_fig(f, r);
	}
	free(recs);
	*out = figs;
	*n = sa->nrecords;
	return 0;
}
