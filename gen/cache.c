/* cache.c — the rebuild cache (see sitewide.h): a folder of text files, the build's "meta" and one
 * file per algorithm page, each read when its page is built. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sitewide.h"

/* 5: doubles as C99 hex floats (%a), exact and several times faster to print and read than
 * %.17g (since 10: the 16 hex digits of their bits); 6: the stat of each page, so that a page the cache does not describe is not reused;
 * 7: a SUPERCOP implementation's path and compiler setting; 8: the headline's interval (and
 * no headline of a page: the index takes it from the page's rows); 9: the unit of the figures;
 * 10: a folder, one file per page and the build's own digests in "meta"; 11: a page's file
 * in two parts, what a rebuild reads of every page (its files and spanning rows, the length of
 * which the P line gives) and then its other rows, with the order of all its rows; 12: a row's
 * paired ratio to its campaign's anchor; 13: the page's KAT results counted (hg_kat_tally), for
 * the site's index. A cache of another version is ignored (the build is then a clean one). */
#define MAGIC "hashgen-cache 13"

static int S_cmp_file(const void *a, const void *b)
{
	return strcmp(((const hg_cfile *)a)->path, ((const hg_cfile *)b)->path);
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
	for (;;) {
		size_t run = strcspn(s, "\t\n\r%"); /* written whole up to the next to escape */
		fwrite(s, 1, run, f);
		s += run;
		if (!*s)
			break;
		fprintf(f, "%%%02X", (unsigned char)*s++);
	}
}

static char *S_get_str(const char *s)
{
	char *out, *o;
	if (s[0] == '-' && !s[1])
		return NULL;
	if (!strchr(s, '%'))
		return hg_xstrdup(s); /* nearly always: nothing escaped */
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

/* A double as the 16 hex digits of its bits: exact, and far cheaper to write and read than any
 * decimal or %a (a clean build writes every row of the field into the cache). */
static void S_put_dbl(FILE *f, double v)
{
	static const char digits[] = "0123456789abcdef";
	unsigned long long bits;
	char buf[18];
	int i;
	memcpy(&bits, &v, sizeof(bits));
	buf[0] = '\t';
	for (i = 16; i >= 1; i--, bits >>= 4)
		buf[i] = digits[bits & 15];
	fwrite(buf, 1, 17, f);
}

/* What S_put_dbl wrote, read by hand (strtoull was a third of a rebuild's reading of the
 * cache); anything else, as strtoull would, up to the first character that is not a digit. */
static double S_get_dbl(const char *s)
{
	unsigned long long bits = 0;
	double v;
	for (;; s++) {
		unsigned d = (unsigned char)*s;
		if (d - '0' < 10)
			d -= '0';
		else if ((d | 0x20) - 'a' < 6)
			d = (d | 0x20) - 'a' + 10;
		else
			break;
		bits = bits << 4 | d;
	}
	memcpy(&v, &bits, sizeof(v));
	return v;
}

/* A row as an R line, or an S line when the spanning outputs read it (hg_figs_spanning). */
static void S_put_fig(FILE *f, const hg_fig *r, int spanning)
{
	const hg_fig_more *x = hg_fig_more_get(r);
	fputc(spanning ? 'S' : 'R', f);
	S_put_str(f, r->instance);
	S_put_str(f, r->implementation);
	S_put_str(f, x->status);
	S_put_str(f, r->kat);
	S_put_str(f, x->record);
	S_put_str(f, x->record_sha256);
	S_put_str(f, r->headline_estimator);
	S_put_str(f, r->supercop_path);
	S_put_str(f, r->compiler);
	S_put_str(f, r->unit);
	S_put_dbl(f, r->headline_cycles);
	S_put_dbl(f, r->headline_cpb);
	fprintf(f, "\t%d", (int)r->headline_iv.state);
	S_put_dbl(f, r->headline_iv.low_cycles);
	S_put_dbl(f, r->headline_iv.high_cycles);
	S_put_dbl(f, r->headline_iv.low_cpb);
	S_put_dbl(f, r->headline_iv.high_cpb);
	S_put_dbl(f, r->headline_iv.half_pct);
	S_put_dbl(f, r->headline_iv.target_pct);
	fprintf(f, "\t%llu\t%lld\t%d", r->message_bytes, r->output_bytes, r->ok);
	S_put_dbl(f, x->mean_cycles);
	S_put_dbl(f, x->cycles_per_byte);
	S_put_dbl(f, x->mean_ns);
	S_put_dbl(f, r->mb_per_s);
	fprintf(f, "\t%llu\t%zu", x->calls, x->rounds);
	S_put_dbl(f, x->median_cycles);
	S_put_dbl(f, x->spread_pct);
	fprintf(f, "\t%d\t%d\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld", x->unstable,
		r->disturbed, r->static_bytes, x->baseline_rss_kib, r->peak_rss_kib, r->stack_bytes,
		r->heap_peak_bytes, x->heap_allocations, x->mmap_bytes, x->text_bytes, x->data_bytes);
	S_put_str(f, r->anchor_instance);
	S_put_str(f, r->anchor_implementation);
	S_put_dbl(f, r->pair.ratio);
	S_put_dbl(f, r->pair.low);
	S_put_dbl(f, r->pair.high);
	fprintf(f, "\t%lld\t%d\t%d\n", r->pair.seed, r->pair.self, r->pair.wide);
}

/* The fields of an R line after its letter: 10 strings, 9 of the headline, 22 other figures, 8
 * of the paired ratio. */
#define S_NFIELDS 49

/* One R line into the page's rows; 0 when the line is whole. */
static int S_get_fig(hg_cpage *p, char *line)
{
	char *field[S_NFIELDS + 1], *rest = line + 1, *t;
	int n = 0, iv;
	hg_fig *r;
	hg_fig_more *x;
	if (*rest++ != '\t')
		return -1;
	/* split at the tabs, empty fields kept (an empty string) */
	for (field[n++] = rest; n <= S_NFIELDS && (t = strchr(rest, '\t')) != NULL; rest = t + 1) {
		*t = 0;
		field[n++] = t + 1;
	}
	if (n != S_NFIELDS)
		return -1;
	p->figs = realloc(p->figs, (p->nfigs + 1) * sizeof(hg_fig));
	r = &p->figs[p->nfigs++];
	memset(r, 0, sizeof(*r));
	x = hg_fig_more_of(r);
	r->system = hg_xstrdup(p->system);
	r->algorithm = hg_xstrdup(p->id);
	r->instance = S_get_str(field[0]);
	r->implementation = S_get_str(field[1]);
	x->status = S_get_str(field[2]);
	r->kat = S_get_str(field[3]);
	hg_fig_set_record(r, S_get_str(field[4]), field[5]);
	r->headline_estimator = S_get_str(field[6]);
	r->supercop_path = S_get_str(field[7]);
	r->compiler = S_get_str(field[8]);
	/* static, as hg_unit_name gives it */
	r->unit = strcmp(field[9], "ticks") == 0 ? "ticks" : "cycles";
	r->headline_cycles = S_get_dbl(field[10]);
	r->headline_cpb = S_get_dbl(field[11]);
	iv = atoi(field[12]);
	r->headline_iv.state = iv >= HG_IV_NONE && iv <= HG_IV_UNCONFIRMED ? (hg_iv_state)iv :
		HG_IV_NONE;
	r->headline_iv.low_cycles = S_get_dbl(field[13]);
	r->headline_iv.high_cycles = S_get_dbl(field[14]);
	r->headline_iv.low_cpb = S_get_dbl(field[15]);
	r->headline_iv.high_cpb = S_get_dbl(field[16]);
	r->headline_iv.half_pct = S_get_dbl(field[17]);
	r->headline_iv.target_pct = S_get_dbl(field[18]);
	r->message_bytes = strtoull(field[19], NULL, 10);
	r->output_bytes = strtoll(field[20], NULL, 10);
	r->ok = atoi(field[21]);
	x->mean_cycles = S_get_dbl(field[22]);
	x->cycles_per_byte = S_get_dbl(field[23]);
	x->mean_ns = S_get_dbl(field[24]);
	r->mb_per_s = S_get_dbl(field[25]);
	x->calls = strtoull(field[26], NULL, 10);
	x->rounds = (size_t)strtoull(field[27], NULL, 10);
	x->median_cycles = S_get_dbl(field[28]);
	x->spread_pct = S_get_dbl(field[29]);
	x->unstable = atoi(field[30]);
	r->disturbed = atoi(field[31]);
	r->static_bytes = strtoll(field[32], NULL, 10);
	x->baseline_rss_kib = strtoll(field[33], NULL, 10);
	r->peak_rss_kib = strtoll(field[34], NULL, 10);
	r->stack_bytes = strtoll(field[35], NULL, 10);
	r->heap_peak_bytes = strtoll(field[36], NULL, 10);
	x->heap_allocations = strtoll(field[37], NULL, 10);
	x->mmap_bytes = strtoll(field[38], NULL, 10);
	x->text_bytes = strtoll(field[39], NULL, 10);
	x->data_bytes = strtoll(field[40], NULL, 10);
	r->anchor_instance = S_get_str(field[41]);
	r->anchor_implementation = S_get_str(field[42]);
	r->pair.ratio = S_get_dbl(field[43]);
	r->pair.low = S_get_dbl(field[44]);
	r->pair.high = S_get_dbl(field[45]);
	r->pair.seed = strtoll(field[46], NULL, 10);
	r->pair.self = atoi(field[47]);
	r->pair.wide = atoi(field[48]);
	if (!r->instance || !r->implementation || !x->status || !x->record)
		return -1;
	return 0;
}

/* "F <path> <ino> <size> <mtime> <sha256>" into f (a thousand of these per rebuilt page: read
 * by hand, not by sscanf); 0 when whole. */
static int S_get_file(hg_cfile *f, char *line)
{
	char *field[6], *rest = line, *end;
	int n = 0;
	while (n < 6 && (field[n] = strsep(&rest, " ")) != NULL)
		n++;
	if (n != 6 || rest || strcmp(field[0], "F") != 0 || !field[1][0] || strlen(field[5]) != 64)
		return -1;
	f->ino = strtoull(field[2], &end, 10);
	if (*end || end == field[2])
		return -1;
	f->size = strtoull(field[3], &end, 10);
	if (*end || end == field[3])
		return -1;
	f->mtime_ns = strtoll(field[4], &end, 10);
	if (*end || end == field[4])
		return -1;
	memcpy(f->sha256, field[5], 65);
	f->path = hg_xstrdup(field[1]);
	return 0;
}

/* <dir>/<system>/<id>: the names are a system's and an algorithm's, checked when read */
static char *S_page_path(const char *dir, const char *system, const char *id)
{
	return hg_xprintf("%s/%s/%s", dir, system, id);
}

/* The first line, the P line and the head it announces (all 0), or the whole file; *len the bytes
 * read, less when the file is shorter (its entry is then damaged). */
static int S_read_entry(char **out, size_t *len, const char *path, int all)
{
	size_t cap = 4096, got = 0, want = cap;
	char *buf, *p;
	int fd, sized = 0; /* want is the P line and its head, no longer the first read */

	if (all)
		return hg_read_file(out, len, path);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	buf = malloc(cap + 1);
	while (buf && got < want) {
		ssize_t r = read(fd, buf + got, want - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
		buf[got] = 0;
		/* the P line's last field: the bytes of the head after it */
		if (!sized && (p = strchr(buf, '\n')) && (p = strchr(p + 1, '\n'))) {
			char *sp = p;
			unsigned long long head;
			while (sp > buf && sp[-1] != ' ' && sp[-1] != '\n')
				sp--;
			head = strtoull(sp, NULL, 10);
			if (head > (1ULL << 30))
				break;
			want = (size_t)(p + 1 - buf) + (size_t)head;
			sized = 1;
			if (want > cap) {
				char *g = realloc(buf, want + 1);
				if (!g)
					break;
				buf = g;
				cap = want;
			}
		}
	}
	close(fd);
	if (!buf)
		return -1;
	if (got > want)
		got = want;
	buf[got] = 0;
	*out = buf;
	*len = got;
	return 0;
}

/* The rows in the order the O line gives: s (the S lines') and r (the R lines') interleaved into
 * p->figs; 0 when the letters match the rows. */
static int S_interleave(hg_cpage *p, const char *order, hg_fig *r, size_t nr)
{
	size_t ns = p->nfigs, is = 0, ir = 0, i, n = strcmp(order, "-") == 0 ? 0 : strlen(order);
	hg_fig *all, *s = p->figs;
	for (i = 0; i < n; i++) {
		if (order[i] == 'S')
			is++;
		else if (order[i] == 'R')
			ir++;
		else
			return -1;
	}
	if (is != ns || ir != nr)
		return -1;
	if (!(all = malloc((n + 1) * sizeof(hg_fig))))
		abort();
	for (i = is = ir = 0; i < n; i++)
		all[i] = order[i] == 'S' ? s[is++] : r[ir++];
	free(s);
	free(r);
	p->figs = all;
	p->nfigs = n;
	return 0;
}

int hg_cache_page_load(hg_cpage *p, const char *dir, const char *system, const char *id,
	int all)
{
	char *path = S_page_path(dir, system, id), *text = NULL, *line, *save = NULL, *order = NULL;
	size_t len, fcap = 0;
	int rc = -1, head = 0;
	hg_cpage rest; /* the R lines' rows, read after the O line */

	memset(p, 0, sizeof(*p));
	memset(&rest, 0, sizeof(rest));
	if (S_read_entry(&text, &len, path, all) != 0) {
		free(path);
		return -1;
	}
	free(path);
	p->system = hg_xstrdup(system);
	p->id = hg_xstrdup(id);
	rest.system = p->system;
	rest.id = p->id;
	line = strtok_r(text, "\n", &save);
	if (!line || strcmp(line, MAGIC) != 0)
		goto out;
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		char a[4096], b[4096], sha[65], own[65];
		unsigned long long ino, size;
		long long mtime;
		size_t hlen;
		if (line[0] == 'F' && head && !order) {
			if (p->nfiles == fcap) {
				fcap = fcap ? 2 * fcap : 64;
				p->files = realloc(p->files, fcap * sizeof(hg_cfile));
			}
			if (S_get_file(&p->files[p->nfiles], line) != 0)
				goto out;
			p->nfiles++;
		} else if (line[0] == 'S' && head && !order) {
			if (S_get_fig(p, line) != 0)
				goto out;
		} else if (line[0] == 'O' && line[1] == ' ' && head && !order) {
			order = line + 2;
			if (!all)
				break;
		} else if (line[0] == 'R' && order) {
			if (S_get_fig(&rest, line) != 0)
				goto out;
		} else if (line[0] == 'P' && !head && sscanf(line, "P %4095s %4095s %64s %64s %llu %llu "
				"%lld %lld %lld %lld %zu", a, b, sha, own, &ino, &size, &mtime,
				&p->kats[HG_KAT_PASSED], &p->kats[HG_KAT_UNVERIFIED],
				&p->kats[HG_KAT_FAILED], &hlen) == 8 + HG_KAT_TALLY &&
				strcmp(a, system) == 0 && strcmp(b, id) == 0 && strlen(sha) == 64 &&
				strlen(own) == 64) {
			memcpy(p->key, sha, 65);
			memcpy(p->own, own, 65);
			p->page_ino = ino;
			p->page_size = size;
			p->page_mtime_ns = mtime;
			head = 1;
		} else {
			goto out; /* damaged: the page is then built as in a clean build */
		}
	}
	p->all = all;
	if (head && order && (!all || S_interleave(p, order, rest.figs, rest.nfigs) == 0)) {
		rest.figs = NULL;
		rest.nfigs = 0;
		/* written sorted; sort anyway so that a hand-edited file cannot break the lookups */
		if (p->nfiles)
			qsort(p->files, p->nfiles, sizeof(hg_cfile), S_cmp_file);
		rc = 0;
	}
out:
	hg_figs_free(rest.figs, rest.nfigs);
	free(text);
	if (rc != 0)
		hg_cpage_clear(p);
	return rc;
}

void hg_cpage_clear(hg_cpage *p)
{
	size_t i;
	for (i = 0; i < p->nfiles; i++)
		free(p->files[i].path);
	free(p->files);
	free(p->system);
	free(p->id);
	hg_figs_free(p->figs, p->nfigs);
	memset(p, 0, sizeof(*p));
}

hg_cpage *hg_cpage_new(void)
{
	hg_cpage *p = calloc(1, sizeof(*p));
	if (!p)
		abort();
	return p;
}

void hg_cpage_free(hg_cpage **p)
{
	if (*p) {
		hg_cpage_clear(*p);
		free(*p);
		*p = NULL;
	}
}

long long hg_mtime_ns(const struct stat *st)
{
	return (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
}

void hg_cpage_set_page(hg_cpage *p, const struct stat *st)
{
	p->page_ino = (unsigned long long)st->st_ino;
	p->page_size = (unsigned long long)st->st_size;
	p->page_mtime_ns = hg_mtime_ns(st);
}

int hg_cpage_is_page(const hg_cpage *p, const struct stat *st)
{
	hg_cpage now;
	hg_cpage_set_page(&now, st);
	return now.page_ino == p->page_ino && now.page_size == p->page_size &&
		now.page_mtime_ns == p->page_mtime_ns;
}

const hg_cfile *hg_cpage_file(const hg_cpage *p, const char *path)
{
	hg_cfile key;
	key.path = (char *)path;
	return p->nfiles ? bsearch(&key, p->files, p->nfiles, sizeof(hg_cfile), S_cmp_file) : NULL;
}

/* Write text atomically to path: a temporary file beside it, renamed. */
static int S_write_atomic(const char *path, const char *text, size_t len)
{
	char *tmp = hg_xprintf("%s.tmp-%ld", path, (long)getpid());
	int rc = hg_write_file(tmp, text, len);
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc != 0) {
		unlink(tmp);
		rc = hg_error_set("%s: cannot write the rebuild cache", path);
	}
	free(tmp);
	return rc;
}

/* A file of the cache written by put (its first line the format's) into memory, then atomically
 * to path (taken). */
static int S_save(char *path, void (*put)(FILE *, const void *, const void *, size_t),
	const void *what, const void *files, size_t nfiles)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f) {
		free(path);
		return hg_error_set("out of memory writing the rebuild cache");
	}
	__fsetlocking(f, FSETLOCKING_BYCALLER); /* this thread's alone: no lock per character */
	fprintf(f, "%s\n", MAGIC);
	put(f, what, files, nfiles);
	fclose(f);
	rc = S_write_atomic(path, text, len);
	free(text);
	free(path);
	return rc;
}

/* "P ... <head>", then the head: the F lines, the S lines and the O line (the letter of every
 * row in its order), <head> bytes in all; then the R lines. A rebuild reads the head alone. */
static void S_put_page(FILE *f, const void *what, const void *list, size_t nfiles)
{
	const hg_cpage *p = what;
	const hg_cfile *files = list;
	char *keep = calloc(p->nfigs + 1, 1), *head = NULL;
	size_t i, hlen = 0;
	FILE *h = open_memstream(&head, &hlen);

	if (!keep || !h)
		abort(); /* out of memory, as hg_cpage_new */
	__fsetlocking(h, FSETLOCKING_BYCALLER);
	hg_figs_spanning_mask(p->figs, p->nfigs, keep);
	for (i = 0; i < nfiles; i++)
		fprintf(h, "F %s %llu %llu %lld %s\n", files[i].path, files[i].ino, files[i].size,
			files[i].mtime_ns, files[i].sha256);
	for (i = 0; i < p->nfigs; i++)
		if (keep[i])
			S_put_fig(h, &p->figs[i], 1);
	fputc('O', h);
	fputc(' ', h);
	for (i = 0; i < p->nfigs; i++)
		fputc(keep[i] ? 'S' : 'R', h);
	fputs(p->nfigs ? "\n" : "-\n", h);
	fclose(h);
	/* the head's length last: the first read of the entry finds it there (S_read_entry) */
	fprintf(f, "P %s %s %s %s %llu %llu %lld %lld %lld %lld %zu\n", p->system, p->id, p->key,
		p->own, p->page_ino, p->page_size, p->page_mtime_ns, p->kats[HG_KAT_PASSED],
		p->kats[HG_KAT_UNVERIFIED], p->kats[HG_KAT_FAILED], hlen);
	fwrite(head, 1, hlen, f);
	free(head);
	for (i = 0; i < p->nfigs; i++)
		if (!keep[i])
			S_put_fig(f, &p->figs[i], 0);
	free(keep);
}

int hg_cache_page_save(const char *dir, const hg_cpage *p, const hg_cfile *files, size_t nfiles)
{
	return S_save(S_page_path(dir, p->system, p->id), S_put_page, p, files, nfiles);
}

/* ---- the build's own digests: "meta", one "<name> <value>" line each ---- */

int hg_cmeta_load(hg_cmeta *m, const char *dir)
{
	char *path = hg_xprintf("%s/meta", dir), *text = NULL, *line, *save = NULL;
	size_t len;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	if (hg_read_file(&text, &len, path) == 0) {
		line = strtok_r(text, "\n", &save);
		if (line && strcmp(line, MAGIC) == 0) {
			rc = 0;
			while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
				char *sp = strchr(line, ' ');
				if (!sp) {
					rc = -1;
					break;
				}
				*sp = 0;
				hg_cmeta_set(m, line, sp + 1);
			}
		}
	}
	free(text);
	free(path);
	if (rc != 0)
		hg_cmeta_clear(m);
	return rc;
}

const char *hg_cmeta_get(const hg_cmeta *m, const char *name)
{
	size_t i;
	for (i = 0; i < m->n; i++)
		if (strcmp(m->names[i], name) == 0)
			return m->values[i];
	return NULL;
}

void hg_cmeta_set(hg_cmeta *m, const char *name, const char *value)
{
	size_t i;
	for (i = 0; i < m->n; i++)
		if (strcmp(m->names[i], name) == 0) {
			free(m->values[i]);
			m->values[i] = hg_xstrdup(value);
			return;
		}
	m->names = realloc(m->names, (m->n + 1) * sizeof(char *));
	m->values = realloc(m->values, (m->n + 1) * sizeof(char *));
	m->names[m->n] = hg_xstrdup(name);
	m->values[m->n] = hg_xstrdup(value);
	m->n++;
}

static void S_put_meta(FILE *f, const void *what, const void *unused, size_t none)
{
	const hg_cmeta *m = what;
	size_t i;
	(void)unused;
	(void)none;
	for (i = 0; i < m->n; i++)
		fprintf(f, "%s %s\n", m->names[i], m->values[i]);
}

int hg_cmeta_save(const hg_cmeta *m, const char *dir)
{
	return S_save(hg_xprintf("%s/meta", dir), S_put_meta, m, NULL, 0);
}

void hg_cmeta_clear(hg_cmeta *m)
{
	size_t i;
	for (i = 0; i < m->n; i++) {
		free(m->names[i]);
		free(m->values[i]);
	}
	free(m->names);
	free(m->values);
	memset(m, 0, sizeof(*m));
}
