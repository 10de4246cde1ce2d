/* pagekeys.c — the digests that decide whether an algorithm page is rendered again: of its own
 * inputs (the evidence, its SHA256SUMS lines, the catalog, the system) and of all it shows. */
#include <stdio.h>
#include <string.h>

#include "sitewide.h"

/* The page's digest: generator and templates, system.json, catalog entry, the part of the
 * downloads it links to, the systems that list the algorithm (breadcrumb), every file with its
 * SHA-256 and every SHA256SUMS line. */
void hg_page_own_key(char out[65], const char *global, const hg_data *d, const hg_system *s,
	const char *id, const char *yard_key, const hg_evfile *files, size_t n, const hg_sum *sums,
	size_t nsums)
{
	const hg_entry *e = hg_data_entry(d, id);
	hg_md *m = hg_md_new();
	const char *kinds[3];
	size_t i, k, t, nkinds = hg_evidence_kinds(s, kinds);

	hg_md_bytes(m, global, 64);
	hg_md_bytes(m, s->name, strlen(s->name) + 1);
	hg_md_bytes(m, s->system_sha256, 64);
	hg_md_bytes(m, e ? e->sha256 : "-", e ? 64 : 1);
	{
		/* the part of the system's downloads the page links to: it moves when an algorithm
		 * before it comes or goes */
		char part[32];
		int len = snprintf(part, sizeof(part), "%zu", hg_part_of(s, id));
		hg_md_bytes(m, part, (size_t)len + 1);
	}
	/* the yardstick table: the baselines' figures on this system */
	hg_md_bytes(m, yard_key, 64);
	for (k = 0; k < d->nsystems; k++)
		if (hg_system_has(&d->systems[k], id))
			hg_md_bytes(m, d->systems[k].name, strlen(d->systems[k].name) + 1);
	for (i = 0; i < n; i++) {
		if (files[i].state == HG_SUM_MISSING)
			continue;
		hg_md_bytes(m, files[i].file, strlen(files[i].file) + 1);
		hg_md_bytes(m, files[i].sha256, 64);
	}
	for (t = 0; t < nkinds; t++) {
		char *prefix = hg_xprintf("%s/%s/", kinds[t], id);
		size_t plen = strlen(prefix);
		for (i = hg_sums_lower(sums, nsums, prefix);
			i < nsums && strncmp(sums[i].path, prefix, plen) == 0; i++) {
			hg_md_bytes(m, sums[i].path, strlen(sums[i].path) + 1);
			hg_md_bytes(m, sums[i].sha256, 64);
		}
		free(prefix);
	}
	hg_md_hex(m, out);
}

/* The page's digest: its own inputs and what the "On other systems" table shows. */
void hg_page_final_key(char out[65], const char *own, const hg_sysfigs *all, size_t nall)
{
	hg_md *m = hg_md_new();
	size_t k, i;
	hg_md_str(m, own);
	for (k = 0; k < nall; k++)
		for (i = 0; i < all[k].nfigs; i++) {
			const hg_fig *f = &all[k].figs[i];
			if (!f->ok || (f->message_bytes != 32 && f->message_bytes != 65536))
				continue;
			hg_md_str(m, all[k].system->name);
			hg_md_str(m, f->instance);
			hg_md_str(m, f->implementation);
			hg_md_int(m, (long long)f->message_bytes);
			hg_md_num(m, f->headline_cpb);
			hg_md_num(m, f->headline_cycles);
			hg_iv_md(m, &f->headline_iv);
			hg_md_int(m, f->disturbed);
			hg_md_int(m, f->headline_estimator && strcmp(f->headline_estimator,
				HG_ESTIMATOR_MEAN) == 0);
		}
	hg_md_hex(m, out);
}
