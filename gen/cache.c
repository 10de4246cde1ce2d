/* cache.c — the rebuild cache (see sitewide.h): a sorted text file, looked up by binary search. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sitewide.h"

/* 5: doubles as C99 hex floats (%a), exact and several times faster to print and read than
 * %.17g; 6: the stat of each page, so that a page the cache does not describe is not reused;
 * 7: a SUPERCOP implementation's path and compiler setting; 8: the headline's interval (and
 * no headline of a page: the index takes it from the page's rows); 9: the unit of the figures.
 * A cache of another version is ignored (the build is then a clean one). */
#define MAGIC "hashgen-cache 9"

static int S_cmp_file(const void *a, const void *b)
{
	return strcmp(((const hg_cfile *)a)->path, ((const hg_cfile *)b)->path);
}

static int S_cmp_page(const void *a, const void *b)
{
	const hg_cpage *x = a, *y = b;
	int c = strcmp(x->system, y->system);
	return c ? c : strcmp(x->id, y->id);
}

/* Strings of a row: tab, newline, carriage return and % percent-encoded; NULL is "-" (a real
 * "-" is "%2D"). */
static void S_put_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("\t-", f);
		return;
	}
	fputc('\t', f);
	if (strcmp(s, "-") == 0) {
		fputs("%2D", f);
		return;
	}
	for (; *s; s++) {
		if (*s == '\t' || *s == '\n' || *s == '\r' || *s == '%')
			fprintf(f, "%%%02X", (unsigned char)*s);
		else
			fputc(*s, f);
	}
}

static char *S_get_str(const char *s)
{
	char *out, *o;
	if (strcmp(s, "-") == 0)
		return NULL;
	out = o = hg_xstrdup(s);
	for (; *s; s++) {
		unsigned v;
		/* two hex digits or the '%' stays as it is: "%4" at the end must not skip the NUL */
		if (*s == '%' && isxdigit((unsigned char)s[1]) && isxdigit((unsigned char)s[2]) &&
			sscanf(s + 1, "%2x", &v) == 1) {
			*o++ = (char)v;
			s += 2;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
	return out;
}

static void S_put_fig(FILE *f, const hg_fig *r)
{
	fputc('R', f);
	S_put_str(f, r->instance);
	S_put_str(f, r->implementation);
	S_put_str(f, r->status);
	S_put_str(f, r->kat);
	S_put_str(f, r->record);
	S_put_str(f, r->record_sha256[0] ? r->record_sha256 : NULL);
	S_put_str(f, r->headline_estimator);
	S_put_str(f, r->supercop_path);
	S_put_str(f, r->compiler);
	S_put_str(f, r->unit);
	fprintf(f, "\t%a\t%a", r->headline_cycles, r->headline_cpb);
	fprintf(f, "\t%d\t%a\t%a\t%a\t%a\t%a\t%a", (int)r->headline_iv.state,
		r->headline_iv.low_cycles, r->headline_iv.high_cycles, r->headline_iv.low_cpb,
		r->headline_iv.high_cpb, r->headline_iv.half_pct, r->headline_iv.target_pct);
	fprintf(f, "\t%llu\t%lld\t%d\t%a\t%a\t%a\t%a\t%llu\t%zu\t%a\t%a\t%d\t%d"
		"\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\n", r->message_bytes, r->output_bytes, r->ok, r->mean_cycles,
		r->cycles_per_byte, r->mean_ns, r->mb_per_s, r->calls, r->rounds, r->median_cycles,
		r->spread_pct, r->unstable, r->disturbed, r->static_bytes, r->baseline_rss_kib,
		r->peak_rss_kib, r->stack_bytes, r->heap_peak_bytes, r->heap_allocations, r->mmap_bytes,
		r->text_bytes, r->data_bytes);
}

/* The fields of an R line after its letter: 10 strings, 9 of the headline, 22 other figures. */
#define S_NFIELDS 41

/* One R line into the page's rows; 0 when the line is whole. */
static int S_get_fig(hg_cpage *p, char *line)
{
	char *field[S_NFIELDS + 1], *rest = line + 1, *t;
	int n = 0, iv;
	hg_fig *r;
	if (*rest++ != '\t')
		return -1;
	while ((t = strsep(&rest, "\t")) != NULL && n < S_NFIELDS + 1)
		field[n++] = t; /* strsep keeps empty fields (an empty string) */
	if (n != S_NFIELDS)
		return -1;
	p->figs = realloc(p->figs, (p->nfigs + 1) * sizeof(hg_fig));
	r = &p->figs[p->nfigs++];
	memset(r, 0, sizeof(*r));
	r->system = hg_xstrdup(p->system);
	r->algorithm = hg_xstrdup(p->id);
	r->instance = S_get_str(field[0]);
	r->implementation = S_get_str(field[1]);
	r->status = S_get_str(field[2]);
	r->kat = S_get_str(field[3]);
	r->record = S_get_str(field[4]);
	if (strlen(field[5]) == 64)
		memcpy(r->record_sha256, field[5], 65);
	r->headline_estimator = S_get_str(field[6]);
	r->supercop_path = S_get_str(field[7]);
	r->compiler = S_get_str(field[8]);
	/* static, as hg_unit_name gives it */
	r->unit = strcmp(field[9], "ticks") == 0 ? "ticks" : "cycles";
	r->headline_cycles = strtod(field[10], NULL);
	r->headline_cpb = strtod(field[11], NULL);
	iv = atoi(field[12]);
	r->headline_iv.state = iv >= HG_IV_NONE && iv <= HG_IV_UNCONFIRMED ? (hg_iv_state)iv :
		HG_IV_NONE;
	r->headline_iv.low_cycles = strtod(field[13], NULL);
	r->headline_iv.high_cycles = strtod(field[14], NULL);
	r->headline_iv.low_cpb = strtod(field[15], NULL);
	r->headline_iv.high_cpb = strtod(field[16], NULL);
	r->headline_iv.half_pct = strtod(field[17], NULL);
	r->headline_iv.target_pct = strtod(field[18], NULL);
	r->message_bytes = strtoull(field[19], NULL, 10);
	r->output_bytes = strtoll(field[20], NULL, 10);
	r->ok = atoi(field[21]);
	r->mean_cycles = strtod(field[22], NULL);
	r->cycles_per_byte = strtod(field[23], NULL);
	r->mean_ns = strtod(field[24], NULL);
	r->mb_per_s = strtod(field[25], NULL);
	r->calls = strtoull(field[26], NULL, 10);
	r->rounds = (size_t)strtoull(field[27], NULL, 10);
	r->median_cycles = strtod(field[28], NULL);
	r->spread_pct = strtod(field[29], NULL);
	r->unstable = atoi(field[30]);
	r->disturbed = atoi(field[31]);
	r->static_bytes = strtoll(field[32], NULL, 10);
	r->baseline_rss_kib = strtoll(field[33], NULL, 10);
	r->peak_rss_kib = strtoll(field[34], NULL, 10);
	r->stack_bytes = strtoll(field[35], NULL, 10);
	r->heap_peak_bytes = strtoll(field[36], NULL, 10);
	r->heap_allocations = strtoll(field[37], NULL, 10);
	r->mmap_bytes = strtoll(field[38], NULL, 10);
	r->text_bytes = strtoll(field[39], NULL, 10);
	r->data_bytes = strtoll(field[40], NULL, 10);
	if (!r->instance || !r->implementation || !r->status || !r->record)
		return -1;
	return 0;
}

void hg_cache_load(hg_cache *c, const char *path)
{
	char *text = NULL, *line, *save = NULL;
	size_t len, fcap = 0, pcap = 0;

	memset(c, 0, sizeof(*c));
	if (hg_read_file(&text, &len, path) != 0)
		return;
	line = strtok_r(text, "\n", &save);
	if (!line || strcmp(line, MAGIC) != 0) {
		free(text);
		return;
	}
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		char a[4096], b[4096], sha[65], own[65];
		unsigned long long ino, size;
		long long mtime;
		hg_cpage *p;
		if (line[0] == 'F' && sscanf(line, "F %4095s %llu %llu %lld %64s", a, &ino, &size, &mtime,
				sha) == 5) {
			if (c->nfiles == fcap) {
				fcap = fcap ? 2 * fcap : 1024;
				c->files = realloc(c->files, fcap * sizeof(hg_cfile));
			}
			c->files[c->nfiles].path = hg_xstrdup(a);
			c->files[c->nfiles].ino = ino;
			c->files[c->nfiles].size = size;
			c->files[c->nfiles].mtime_ns = mtime;
			memcpy(c->files[c->nfiles].sha256, sha, 65);
			c->nfiles++;
		} else if (line[0] == 'R' && c->npages) {
			if (S_get_fig(&c->pages[c->npages - 1], line) != 0) {
				/* damaged: forget it all, the build is then a clean one */
				free(text);
				hg_cache_clear(c);
				return;
			}
		} else if (line[0] == 'P' && sscanf(line, "P %4095s %4095s %64s %64s %llu %llu %lld",
				a, b, sha, own, &ino, &size, &mtime) == 7) {
			if (c->npages == pcap) {
				pcap = pcap ? 2 * pcap : 256;
				c->pages = realloc(c->pages, pcap * sizeof(hg_cpage));
			}
			p = &c->pages[c->npages++];
			memset(p, 0, sizeof(hg_cpage));
			p->system = hg_xstrdup(a);
			p->id = hg_xstrdup(b);
			memcpy(p->key, sha, 65);
			memcpy(p->own, own, 65);
			p->page_ino = ino;
			p->page_size = size;
			p->page_mtime_ns = mtime;
		}
	}
	free(text);
	/* written sorted; sort anyway so that a hand-edited file cannot break the lookups */
	if (c->nfiles)
		qsort(c->files, c->nfiles, sizeof(hg_cfile), S_cmp_file);
	if (c->npages)
		qsort(c->pages, c->npages, sizeof(hg_cpage), S_cmp_page);
}

void hg_cache_clear(hg_cache *c)
{
	size_t i;
	for (i = 0; i < c->nfiles; i++)
		free(c->files[i].path);
	for (i = 0; i < c->npages; i++) {
		free(c->pages[i].system);
		free(c->pages[i].id);
		hg_figs_free(c->pages[i].figs, c->pages[i].nfigs);
	}
	free(c->files);
	free(c->pages);
	memset(c, 0, sizeof(*c));
}

const hg_cfile *hg_cache_file(const hg_cache *c, const char *path)
{
	hg_cfile key;
	key.path = (char *)path;
	return c->nfiles ? bsearch(&key, c->files, c->nfiles, sizeof(hg_cfile), S_cmp_file) : NULL;
}

const hg_cpage *hg_cache_page(const hg_cache *c, const char *system, const char *id)
{
	hg_cpage key;
	key.system = (char *)system;
	key.id = (char *)id;
	return c->npages ? bsearch(&key, c->pages, c->npages, sizeof(hg_cpage), S_cmp_page) : NULL;
}

int hg_cache_save(const char *path, hg_cfile *files, size_t nfiles, hg_cpage *pages,
	size_t npages)
{
	char *tmp = hg_xprintf("%s.tmp-%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	size_t i;
	int rc = 0;

	if (!f) {
		free(tmp);
		return hg_error_set("%s: cannot write the rebuild cache", path);
	}
	if (nfiles)
		qsort(files, nfiles, sizeof(hg_cfile), S_cmp_file);
	if (npages)
		qsort(pages, npages, sizeof(hg_cpage), S_cmp_page);
	fprintf(f, "%s\n", MAGIC);
	for (i = 0; i < npages; i++) {
		size_t k;
		fprintf(f, "P %s %s %s %s %llu %llu %lld\n", pages[i].system, pages[i].id,
			pages[i].key, pages[i].own, pages[i].page_ino, pages[i].page_size,
			pages[i].page_mtime_ns);
		for (k = 0; k < pages[i].nfigs; k++)
			S_put_fig(f, &pages[i].figs[k]);
	}
	for (i = 0; i < nfiles; i++)
		fprintf(f, "F %s %llu %llu %lld %s\n", files[i].path, files[i].ino, files[i].size,
			files[i].mtime_ns, files[i].sha256);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		unlink(tmp);
		rc = hg_error_set("%s: cannot write the rebuild cache", path);
	}
	free(tmp);
	return rc;
}
