/* kat.c — the ICCS KAT procedure: regenerate KAT_2_12/2_23/2_33/Loop files with the DRNG and
 * an implementation, and compare them with what the submitter shipped, entry by entry. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hbkat.h"
#include "hbsandbox.h"

#define LOOP_ROUNDS 1000000
#define LOOP_MSG_BYTES 1024
#define KAT_2_12_MAX_BITS 4096

typedef struct {
	char *data;
	size_t len, cap;
	int oom;
} S_text;

static void S_append(S_text *t, const char *s, size_t n)
{
	if (t->oom)
		return;
	if (t->cap - t->len < n + 1) {
		size_t cap = t->cap ? t->cap : 1 << 16;
		char *grown;
		while (cap - t->len < n + 1)
			cap *= 2;
		grown = realloc(t->data, cap);
		if (!grown) {
			t->oom = 1;
			return;
		}
		t->data = grown;
		t->cap = cap;
	}
	memcpy(t->data + t->len, s, n);
	t->len += n;
	t->data[t->len] = 0;
}

static void S_puts(S_text *t, const char *s)
{
	S_append(t, s, strlen(s));
}

static void S_put_hex_line(S_text *t, const char *key, const unsigned char *v, size_t n)
{
	char *hex = malloc(2 * n + 1);
	if (!hex) {
		t->oom = 1;
		return;
	}
	hb_hex(hex, v, n, 1);
	S_puts(t, key);
	S_puts(t, " = ");
	S_append(t, hex, 2 * n);
	S_puts(t, "\n");
	free(hex);
}

static void S_put_num_line(S_text *t, const char *key, unsigned long long v)
{
	char line[128];
	snprintf(line, sizeof(line), "%s = %llu\n", key, v);
	S_puts(t, line);
}

/* The seed of each file: its first 8 characters repeated 8 times. */
static void S_seed(unsigned char seed[64], hb_kat_set set)
{
	char head[9];
	int i;
	snprintf(head, sizeof(head), "KAT_%s", hb_kat_set_name(set));
	for (i = 0; i < 8; i++)
		memcpy(seed + 8 * i, head, 8);
}

static int S_gen_2_12(S_text *t, const hb_impl *impl, int digest_bits, int byte_aligned)
{
	unsigned char seed[64], msg[KAT_2_12_MAX_BITS / 8], *digest;
	hb_drng drng;
	unsigned n;
	int rc = 0;

	digest = malloc(((size_t)digest_bits + 7) / 8);
	if (!digest)
		return hb_error_set("out of memory");
	S_seed(seed, HB_KAT_2_12);
	if (hb_drng_init(&drng, seed, sizeof(seed)) != 0) {
		free(digest);
		return HB_ERROR;
	}
	for (n = 0; n <= KAT_2_12_MAX_BITS && rc == 0; n++) {
		memset(msg, 0, sizeof(msg));
		if ((rc = hb_drng_generate(&drng, msg, n)) != 0)
			break;
		if (byte_aligned && n % 8)
			continue;
		if ((rc = hb_impl_hash(impl, digest_bits, msg, n, digest)) != 0)
			break;
		S_put_num_line(t, "Msg_Len", n);
		S_put_hex_line(t, "Msg", msg, (n + 7) / 8);
		S_put_num_line(t, "Dst_Len", (unsigned long long)digest_bits);
		S_put_hex_line(t, "Dst", digest, ((size_t)digest_bits + 7) / 8);
		S_puts(t, "\n");
	}
	free(digest);
	return rc;
}

static int S_gen_long(S_text *t, const hb_impl *impl, int digest_bits, hb_kat_set set)
{
	uint64_t bits = set == HB_KAT_2_23 ? (uint64_t)1 << 23 : (uint64_t)1 << 33;
	size_t bytes = (size_t)(bits / 8), dlen = ((size_t)digest_bits + 7) / 8;
	unsigned char seed[64], *msg = malloc(bytes), *digest = malloc(dlen);
	hb_drng drng;
	int kind, rc = 0;

	if (!msg || !digest) {
		free(msg);
		free(digest);
		return hb_error_set("out of memory for a %llu-bit message",
			(unsigned long long)bits);
	}
	S_seed(seed, set);
	for (kind = 0; kind < 3 && rc == 0; kind++) {
		char exp[64];
		if (kind == 0)
			memset(msg, 0x00, bytes);
		else if (kind == 1)
			memset(msg, 0xff, bytes);
		else if ((rc = hb_drng_init(&drng, seed, sizeof(seed))) != 0 ||
			(rc = hb_drng_generate(&drng, msg, bits)) != 0)
			break;
		if ((rc = hb_impl_hash(impl, digest_bits, msg, bits, digest)) != 0)
			break;
		S_put_num_line(t, "Msg_Len", bits);
		if (kind == 2)
			S_put_hex_line(t, "Msg_Seed", seed, sizeof(seed));
		else
			S_puts(t, "Msg_Seed = \n");
		hb_hex(exp, msg, 8, 1);
		S_puts(t, "Msg_Exp = ");
		S_puts(t, exp);
		S_puts(t, " .... ");
		hb_hex(exp, msg + bytes - 8, 8, 1);
		S_puts(t, exp);
		S_puts(t, "\n");
		S_put_num_line(t, "Dst_Len", (unsigned long long)digest_bits);
		S_put_hex_line(t, "Dst", digest, dlen);
		S_puts(t, "\n");
	}
	free(msg);
	free(digest);
	return rc;
}

static int S_gen_loop(S_text *t, const hb_impl *impl, int digest_bits)
{
	unsigned char seed[64], m0[LOOP_MSG_BYTES], msg[LOOP_MSG_BYTES], tmp[LOOP_MSG_BYTES];
	size_t dlen = ((size_t)digest_bits + 7) / 8, shift, x, i;
	unsigned char *digest = malloc(dlen);
	hb_drng drng;
	long round;
	int rc = 0;

	if (!digest)
		return hb_error_set("out of memory");
	S_seed(seed, HB_KAT_LOOP);
	memset(m0, 0, sizeof(m0));
	if ((rc = hb_drng_init(&drng, seed, sizeof(seed))) != 0 ||
		(rc = hb_drng_generate(&drng, m0, 8 * LOOP_MSG_BYTES)) != 0 ||
		(rc = hb_impl_hash(impl, digest_bits, m0, 8 * LOOP_MSG_BYTES, digest)) != 0)
		goto out;
	memcpy(msg, m0, sizeof(msg));
	shift = dlen % LOOP_MSG_BYTES;
	x = dlen < LOOP_MSG_BYTES ? dlen : LOOP_MSG_BYTES;
	for (round = 0; round < LOOP_ROUNDS; round++) {
		memcpy(tmp, msg + shift, LOOP_MSG_BYTES - shift);
		memcpy(tmp + LOOP_MSG_BYTES - shift, msg, shift);
		for (i = 0; i < x; i++)
			tmp[i] ^= digest[i];
		memcpy(msg, tmp, sizeof(msg));
		if ((rc = hb_impl_hash(impl, digest_bits, msg, 8 * LOOP_MSG_BYTES, digest)) != 0) {
			hb_error_prefix("loop round %ld: ", round + 1);
			goto out;
		}
	}
	S_put_num_line(t, "Msg_Len", 8 * LOOP_MSG_BYTES);
	S_put_hex_line(t, "Msg", m0, sizeof(m0));
	S_put_num_line(t, "Dst_Len", (unsigned long long)digest_bits);
	S_put_hex_line(t, "Dst", digest, dlen);
	S_puts(t, "\n");
out:
	free(digest);
	return rc;
}

static int S_generate(S_text *t, const hb_impl *impl, const char *instance, int digest_bits,
	hb_kat_set set, int byte_aligned)
{
	int rc;

	if (digest_bits <= 0)
		return hb_error_set("%s: DIGEST_BIT_LENGTH %d is not positive", instance, digest_bits);
	if (set == HB_KAT_2_12)
		rc = S_gen_2_12(t, impl, digest_bits, byte_aligned);
	else if (set == HB_KAT_LOOP)
		rc = S_gen_loop(t, impl, digest_bits);
	else
		rc = S_gen_long(t, impl, digest_bits, set);
	if (rc == 0 && t->oom)
		rc = hb_error_set("out of memory writing KAT_%s", hb_kat_set_name(set));
	return rc;
}

int hb_kat_generate(const hb_impl *impl, const char *instance, int digest_bits,
	hb_kat_set set, const char *path, int byte_aligned)
{
	S_text t = { 0 };
	int rc = S_generate(&t, impl, instance, digest_bits, set, byte_aligned);
	if (rc == 0)
		rc = hb_file_write_atomic(path, t.data ? t.data : "", t.len);
	free(t.data);
	return rc;
}

/* ---- comparison ---- */

typedef struct {
	const char **lines; /* normalised lines, borrowed from a modified copy of the text */
	size_t nlines;
	size_t *entry_start; /* index of each entry's first line */
	size_t nentries;
	char *copy;
} S_entries;

static void S_entries_free(S_entries *e)
{
	free(e->lines);
	free(e->entry_start);
	free(e->copy);
}

/* Split into lines without CR or trailing blanks; empty lines separate entries. */
static int S_entries_parse(S_entries *e, const char *text, size_t len)
{
	size_t cap = 1024, ecap = 256, i;
	char *p, *end;
	int in_entry = 0;

	memset(e, 0, sizeof(*e));
	e->copy = malloc(len + 1);
	e->lines = malloc(cap * sizeof(*e->lines));
	e->entry_start = malloc(ecap * sizeof(*e->entry_start));
	if (!e->copy || !e->lines || !e->entry_start)
		goto oom;
	memcpy(e->copy, text, len);
	e->copy[len] = 0;
	p = e->copy;
	end = e->copy + len;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *eol = nl ? nl : end;
		char *q = eol;
		while (q > p && (q[-1] == '\r' || q[-1] == ' ' || q[-1] == '\t'))
			q--;
		*q = 0;
		for (i = 0; p + i < q; i++)
			if (p[i] == '\r')
				p[i] = ' ';
		if (q == p) {
			in_entry = 0;
		} else {
			if (!in_entry) {
				if (e->nentries == ecap) {
					size_t *g = realloc(e->entry_start, 2 * ecap * sizeof(*g));
					if (!g)
						goto oom;
					e->entry_start = g;
					ecap *= 2;
				}
				e->entry_start[e->nentries++] = e->nlines;
				in_entry = 1;
			}
			if (e->nlines == cap) {
				const char **g = realloc(e->lines, 2 * cap * sizeof(*g));
				if (!g)
					goto oom;
				e->lines = g;
				cap *= 2;
			}
			e->lines[e->nlines++] = p;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
oom:
	S_entries_free(e);
	return hb_error_set("out of memory parsing a KAT file");
}

static size_t S_entry_len(const S_entries *e, size_t k)
{
	size_t next = k + 1 < e->nentries ? e->entry_start[k + 1] : e->nlines;
	return next - e->entry_start[k];
}

/* Long values (a 4096-bit Msg) are shortened in messages, keeping both ends. */
static char *S_short(const char *v)
{
	size_t n = strlen(v);
	if (n <= 80)
		return hb_strdup(v);
	return hb_sprintf("%.32s…%s (%zu characters)", v, v + n - 16, n);
}

static int S_line_diff(const char *label, const char *exp, const char *got)
{
	const char *eq_e = strstr(exp, " = "), *eq_g = strstr(got, " = ");
	char *key = hb_strdup(exp), *ev, *gv;
	int rc;

	if (eq_e && eq_g && eq_e - exp == eq_g - got && strncmp(exp, got, (size_t)(eq_e - exp)) == 0) {
		key[eq_e - exp] = 0;
		ev = S_short(eq_e + 3);
		gv = S_short(eq_g + 3);
		rc = hb_error_set("%s: %s differs: expected %s, got %s", label, key, ev, gv);
	} else {
		ev = S_short(exp);
		gv = S_short(got);
		rc = hb_error_set("%s: line differs: expected '%s', got '%s'", label, ev, gv);
	}
	free(key);
	free(ev);
	free(gv);
	return rc;
}

int hb_kat_compare(const char *expected, size_t expected_len, const char *got, size_t got_len,
	size_t *out_entries)
{
	S_entries e, g;
	size_t k, i;
	int rc = 0;

	if (out_entries)
		*out_entries = 0;
	if (S_entries_parse(&e, expected, expected_len) != 0)
		return HB_ERROR;
	if (S_entries_parse(&g, got, got_len) != 0) {
		S_entries_free(&e);
		return HB_ERROR;
	}
	for (k = 0; k < e.nentries && k < g.nentries && rc == 0; k++) {
		const char **el = e.lines + e.entry_start[k], **gl = g.lines + g.entry_start[k];
		size_t en = S_entry_len(&e, k), gn = S_entry_len(&g, k);
		char label[160];
		snprintf(label, sizeof(label), "%s", el[0]);
		for (i = 0; i < en && i < gn; i++) {
			if (strcmp(el[i], gl[i]) != 0) {
				rc = S_line_diff(label, el[i], gl[i]);
				break;
			}
		}
		if (rc == 0 && en != gn)
			rc = hb_error_set("%s: expected %zu %s in the entry, got %zu", label, en,
				hb_plural(en, "line", "lines"), gn);
	}
	if (rc == 0 && e.nentries != g.nentries)
		rc = hb_error_set("expected %zu %s, got %zu", e.nentries,
			hb_plural(e.nentries, "entry", "entries"), g.nentries);
	if (rc == 0 && out_entries)
		*out_entries = e.nentries;
	S_entries_free(&e);
	S_entries_free(&g);
	return rc;
}

void hb_kat_normalised_sha256(char out_hex[65], const char *text, size_t len)
{
	S_text t = { 0 };
	S_entries e;
	unsigned char md[32];
	size_t i;

	if (S_entries_parse(&e, text, len) == 0) {
		for (i = 0; i < e.nlines; i++) {
			S_puts(&t, e.lines[i]);
			S_puts(&t, "\n");
		}
		S_entries_free(&e);
	}
	hb_sha256(md, t.data ? t.data : "", t.len);
	hb_hex(out_hex, md, 32, 0);
	free(t.data);
}

/* Keep only the entries whose Msg_Len is a whole number of bytes (byte-aligned libraries). */
int hb_kat_keep_byte_aligned(hb_buf *text)
{
	S_entries e;
	S_text t = { 0 };
	size_t k, i;
	if (S_entries_parse(&e, (char *)text->data, text->len) != 0)
		return HB_ERROR;
	for (k = 0; k < e.nentries; k++) {
		const char **l = e.lines + e.entry_start[k];
		unsigned long long n;
		if (sscanf(l[0], "Msg_Len = %llu", &n) == 1 && n % 8)
			continue;
		for (i = 0; i < S_entry_len(&e, k); i++) {
			S_puts(&t, l[i]);
			S_puts(&t, "\n");
		}
		S_puts(&t, "\n");
	}
	S_entries_free(&e);
	if (t.oom) {
		free(t.data);
		return hb_error_set("out of memory");
	}
	hb_buf_free(text);
	text->data = (unsigned char *)(t.data ? t.data : calloc(1, 1));
	text->len = t.len;
	return 0;
}

/* ---- the whole check of one library ---- */

typedef struct {
	const char *instance;
	int digest_bits;
	hb_kat_set set;
	int byte_aligned;
} S_gen_job;

/* In the sandboxed child: the whole file goes back on the result channel. */
static int S_gen_child(const hb_impl *impl, void *arg, int result_fd)
{
	const S_gen_job *job = arg;
	S_text t = { 0 };
	size_t off = 0;
	int rc = S_generate(&t, impl, job->instance, job->digest_bits, job->set, job->byte_aligned);

	while (rc == 0 && off < t.len) {
		ssize_t n = write(result_fd, t.data + off, t.len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			rc = hb_error_set("writing the result: %s", strerror(errno));
		else
			off += (size_t)n;
	}
	free(t.data);
	return rc;
}

static unsigned S_time_limit(hb_kat_set set)
{
	/* Generous: a slow reference implementation must not be called hung. */
	return set == HB_KAT_2_33 ? 7200 : set == HB_KAT_LOOP ? 1800 : 600;
}

int hb_kat_generate_file(const hb_instance *inst, const char *library, hb_kat_set set,
	const char *path, unsigned time_limit_s, FILE *log)
{
	S_gen_job job = { inst->name, inst->digest_bits, set, inst->kat_byte_aligned };
	hb_child c;
	char *why;
	int rc;

	if (hb_sandbox_call(&c, library, time_limit_s ? time_limit_s : S_time_limit(set),
			S_gen_child, &job) != 0)
		return HB_ERROR;
	if (c.output_len && log)
		fprintf(log, "  output of the library (%zu %s%s):\n%s%s", c.output_len,
			hb_plural(c.output_len, "byte", "bytes"), c.output_truncated ? ", the rest dropped" : "", c.output,
			c.output[c.output_len - 1] == '\n' ? "" : "\n");
	why = hb_child_describe(&c);
	if (why)
		rc = hb_error_set("%s", why);
	else
		rc = hb_file_write_atomic(path, c.result.data ? (char *)c.result.data : "",
			c.result.len);
	free(why);
	hb_child_clear(&c);
	return rc;
}

static void S_logf(FILE *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void S_logf(FILE *log, const char *fmt, ...)
{
	va_list ap;
	if (!log)
		return;
	va_start(ap, fmt);
	vfprintf(log, fmt, ap);
	va_end(ap);
	fflush(log);
}

void hb_kat_report_clear(hb_kat_report *rep)
{
	int s;
	for (s = 0; s < HB_KAT_NSETS; s++) {
		free(rep->files[s].name);
		free(rep->files[s].detail);
	}
	free(rep->detail);
	memset(rep, 0, sizeof(*rep));
}


static int S_check_one(hb_kat_file_result *fr, const hb_instance *inst, const char *library,
	hb_kat_set set, const char *work_dir, unsigned time_limit_s, FILE *log)
{
	hb_buf got = { 0 }, exp = { 0 };
	char *path = hb_path_join(work_dir, fr->name);
	unsigned char md[32];
	char norm[65];
	int rc = 0;

	S_logf(log, "regenerating %s with %s\n", fr->name, library);
	if (hb_kat_generate_file(inst, library, set, path, time_limit_s, log) != 0 ||
		hb_file_read(&got, path) != 0) {
		hb_error_prefix("KAT_%s: ", hb_kat_set_name(set));
		fr->result = "ERROR";
		fr->detail = hb_strdup(hb_error_last());
		rc = HB_ERROR;
		goto out;
	}
	hb_sha256(md, got.data, got.len);
	hb_hex(fr->sha256, md, 32, 0);
	S_logf(log, "  regenerated sha256 %s\n", fr->sha256);

	if (inst->kat_files[set]) {
		size_t entries = 0;
		if (hb_file_read(&exp, inst->kat_files[set]) != 0) {
			fr->result = "ERROR";
			fr->detail = hb_strdup(hb_error_last());
			rc = HB_ERROR;
			goto out;
		}
		hb_sha256(md, exp.data, exp.len);
		hb_hex(fr->expected_sha256, md, 32, 0);
		S_logf(log, "  submitted   sha256 %s (%s)\n", fr->expected_sha256, inst->kat_files[set]);
		if (inst->kat_byte_aligned && hb_kat_keep_byte_aligned(&exp) != 0) {
			fr->result = "ERROR";
			fr->detail = hb_strdup(hb_error_last());
			rc = HB_ERROR;
			goto out;
		}
		if (hb_kat_compare((char *)exp.data, exp.len, (char *)got.data, got.len, &entries) != 0) {
			hb_error_prefix("KAT_%s: ", hb_kat_set_name(set));
			fr->result = "FAIL";
			fr->detail = hb_strdup(hb_error_last());
		} else {
			fr->result = "PASS";
			fr->entries = entries;
			fr->detail = hb_sprintf("%zu %s identical", entries, entries == 1 ? "entry" : "entries");
		}
	} else {
		const char *want = inst->kat_manifest[set];
		snprintf(fr->expected_sha256, sizeof(fr->expected_sha256), "%s", want);
		hb_kat_normalised_sha256(norm, (char *)got.data, got.len);
		S_logf(log, "  manifest    sha256 %s (%s)\n", want, inst->kat_manifest_file[set]);
		if (strcasecmp(want, fr->sha256) == 0) {
			fr->result = "PASS";
			fr->detail = hb_strdup("matches the manifest (raw form)");
		} else if (strcasecmp(want, norm) == 0) {
			fr->result = "PASS";
			fr->detail = hb_strdup("matches the manifest (normalised form)");
		} else {
			fr->result = "FAIL";
			fr->detail = hb_sprintf("KAT_%s: sha256 differs from %s: expected %s, got %s "
				"(raw) or %s (normalised)", hb_kat_set_name(set),
				inst->kat_manifest_file[set], want, fr->sha256, norm);
		}
	}
out:
	S_logf(log, "  %s: %s\n", fr->result, fr->detail ? fr->detail : "");
	hb_buf_free(&got);
	hb_buf_free(&exp);
	free(path);
	return rc;
}

int hb_kat_check(hb_kat_report *out, const hb_instance *inst, const char *library,
	unsigned mask, const char *work_dir, unsigned time_limit_s, FILE *log)
{
	unsigned have = 0;
	int s, failed = 0, errored = 0, passed = 0;

	memset(out, 0, sizeof(*out));
	for (s = 0; s < HB_KAT_NSETS; s++)
		if (inst->kat_files[s] || inst->kat_manifest[s])
			have |= 1u << s;
	if (!mask)
		mask = have;
	if (hb_mkdir_p(work_dir) != 0)
		return HB_ERROR;
	for (s = 0; s < HB_KAT_NSETS; s++) {
		hb_kat_file_result *fr = &out->files[s];
		if (!(mask & (1u << s)))
			continue;
		out->mask |= 1u << s;
		fr->name = hb_sprintf("KAT_%s_%s.txt", hb_kat_set_name(s), inst->name);
		if ((have & (1u << s)) && inst->kat_byte_aligned && !inst->kat_files[s] &&
			s == HB_KAT_2_12) {
			/* a manifest hashes the whole file, bit-length entries too: nothing to compare */
			fr->result = "SKIPPED";
			fr->detail = hb_sprintf("only a kat.sha256 line was submitted for %s, and this "
				"library hashes whole bytes only", fr->name);
			S_logf(log, "%s: SKIPPED: %s\n", fr->name, fr->detail);
			continue;
		}
		if (!(have & (1u << s))) {
			fr->result = "MISSING";
			fr->detail = hb_sprintf("no submitted %s and no kat.sha256 line for it", fr->name);
			S_logf(log, "%s: MISSING: %s\n", fr->name, fr->detail);
			errored = 1;
			continue;
		}
		if (S_check_one(fr, inst, library, s, work_dir, time_limit_s, log) != 0)
			errored = 1;
		else if (strcmp(fr->result, "PASS") != 0)
			failed = 1;
		else
			passed = 1;
	}
	if (!out->mask) {
		out->result = "ERROR";
		out->detail = hb_sprintf("%s: no submitted KAT files found", inst->name);
	} else if (errored || failed || !passed) {
		/* The first problem, in set order, is the one the user reads. */
		for (s = 0; s < HB_KAT_NSETS; s++)
			if (out->files[s].result && strcmp(out->files[s].result, "PASS") != 0 &&
				(strcmp(out->files[s].result, "SKIPPED") != 0 || !passed))
				break;
		if (!errored && !failed)
			errored = 1; /* every requested set was skipped: nothing was proven */
		out->result = errored && !failed ? "ERROR" : "FAIL";
		out->detail = hb_strdup(out->files[s].detail);
	} else {
		out->result = "PASS";
		if (inst->kat_byte_aligned)
			out->detail = hb_strdup("byte-aligned entries only");
	}
	S_logf(log, "result: %s%s%s\n", out->result, out->detail ? ": " : "",
		out->detail ? out->detail : "");
	return 0;
}
