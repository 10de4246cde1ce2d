/* supercop_build.c — one SUPERCOP implementation compiled as SUPERCOP's do-part compiles it: a
 * flat copy with links followed, the generated <operation>.h and <operation>_<primitive>.h with
 * their namespaced names, -DSUPERCOP and the CRYPTO_NAMESPACE flags, one compiler line; its
 * try-small and try programs from the tree's try.c and try-anything.c; and the library the
 * campaign times, with CryptHash as its only visible symbol. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "hbbuild.h"

#define S_COMPILE_LIMIT 300
#define S_LIBS "-lm", "-lcrypto"

/* The cycle counter try-anything.c reads, for the try programs only: the time-stamp counter
 * where there is one, else the monotonic clock (the checksums do not depend on it; only the
 * median try prints, by which settings are ranked, does). */
static const char S_cpucycles_c[] =
	"/* hashbench's cpucycles for SUPERCOP's try programs */\n"
	"#include <time.h>\n"
	"static long long S_ns(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);\n"
	"  return t.tv_sec * 1000000000LL + t.tv_nsec; }\n"
	"#if defined(__x86_64__)\n"
	"static long long S_ticks(void) { unsigned lo, hi;\n"
	"  __asm__ volatile(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi)); return ((long long)hi << 32) | lo; }\n"
	"#elif defined(__aarch64__)\n"
	"static long long S_ticks(void) { long long v; __asm__ volatile(\"mrs %0, cntvct_el0\" : \"=r\"(v));\n"
	"  return v; }\n"
	"#else\n"
	"#define S_ticks S_ns\n"
	"#endif\n"
	"long long (*cpucycles)(void) = S_ticks;\n"
	"long long cpucycles_persecond(void) { long long t0 = S_ticks(), n0 = S_ns(), t1, n1;\n"
	"  do { t1 = S_ticks(); n1 = S_ns(); } while (n1 - n0 < 10000000);\n"
	"  return (long long)((double)(t1 - t0) * 1e9 / (double)(n1 - n0)); }\n"
	"const char *cpucycles_implementation(void) { return \"hashbench\"; }\n"
	"const char *cpucycles_version(void) { return \"-\"; }\n"
	"void cpucycles_tracesetup(void) { }\n";

static const char S_adapter_c[] =
	"/* hashbench: the NGCC entry point over SUPERCOP's crypto_hash, whole bytes only */\n"
	"#include \"crypto_hash.h\"\n"
	"#ifdef __cplusplus\n"
	"extern \"C\"\n"
	"#endif\n"
	"int CryptHash(int bits, const unsigned char *m, unsigned long long mbits,\n"
	"  unsigned char *out)\n"
	"{\n"
	"  if (bits != 8 * crypto_hash_BYTES || (mbits & 7))\n"
	"    return -1;\n"
	"  return crypto_hash(out, m, mbits >> 3);\n"
	"}\n"
	"/* one call when loaded, before the system-call filter: what initialises itself lazily\n"
	"   (OpenSSL reads its configuration at its first call) does it here */\n"
	"__attribute__((constructor)) static void hashbench_warm(void)\n"
	"{\n"
	"  unsigned char out[crypto_hash_BYTES];\n"
	"  crypto_hash(out, out, 0);\n"
	"}\n";

void hb_sc_unit_free(hb_sc_unit *u)
{
	if (!u)
		return;
	free(u->dir);
	free(u->compiler);
	free(u->language);
	free(u->opi);
	hb_strv_free(u->objects);
	free(u->archive);
	free(u->try_small);
	free(u->try_big);
	free(u->log);
	free(u->error);
	free(u);
}

static int S_write(const char *dir, const char *name, const char *text, size_t len)
{
	char *p = hb_path_join(dir, name);
	int rc = hb_file_write_atomic(p, text, len);
	free(p);
	return rc;
}

static int S_write_str(const char *dir, const char *name, const char *text)
{
	return S_write(dir, name, text, strlen(text));
}

static int S_has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Copy src (a file of the tree, links followed) to dst. */
static int S_copy(const char *src, const char *dst)
{
	char *real = hb_supercop_follow(src);
	hb_buf b;
	int rc = hb_file_read_raw(&b, real);
	free(real);
	if (rc != 0)
		return rc;
	rc = hb_file_write_atomic(dst, b.data, b.len);
	hb_buf_free(&b);
	return rc;
}

/* cp -LpR of the implementation into the compile folder: every file and folder, links followed. */
static int S_copy_tree(const char *src, const char *dst, int depth)
{
	DIR *d;
	struct dirent *de;
	int rc = 0;
	if (depth > 8)
		return 0;
	if (hb_mkdir_p(dst) != 0)
		return HB_ERROR;
	if (!(d = opendir(src)))
		return hb_error_set("%s: %s", src, strerror(errno));
	while (rc == 0 && (de = readdir(d)) != NULL) {
		char *s, *t;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		s = hb_path_join(src, de->d_name);
		t = hb_path_join(dst, de->d_name);
		if (hb_is_dir(s))
			rc = S_copy_tree(s, t, depth + 1);
		else if (hb_is_file(s))
			rc = S_copy(s, t);
		free(s);
		free(t);
	}
	closedir(d);
	return rc;
}

/* The lines of text that name op as do-part's grep -E "op$|op\(|op_" finds them. */
static int S_names_op(const char *line, const char *op)
{
	size_t n = strlen(op);
	const char *p;
	for (p = strstr(line, op); p; p = strstr(p + 1, op))
		if (p[n] == 0 || p[n] == '(' || p[n] == '_')
			return 1;
	return 0;
}

/* Replace the first from in line by to (sed "s/from/to/"); caller frees. */
static char *S_sub(const char *line, const char *from, const char *to)
{
	const char *p = strstr(line, from);
	if (!p)
		return hb_strdup(line);
	return hb_sprintf("%.*s%s%s", (int)(p - line), line, to, p + strlen(from));
}

/* <op>.h and <op>_<primitive>.h (and its _publicinputs twin), as do-part writes them. */
static int S_headers(const char *dir, const char *tree, const char *op, const char *prim,
	const char *path, const char *opi)
{
	char *macros_p = hb_path_join(tree, "MACROS"), *protos_p = hb_path_join(tree, "PROTOTYPES.c");
	char *api_p = hb_path_join(dir, "api.h"), *opp = hb_sprintf("%s_%s", op, prim), *line, *save;
	hb_buf macros = { 0 }, protos = { 0 }, api = { 0 };
	char *text = NULL;
	size_t len = 0, i;
	FILE *f;
	int rc = HB_ERROR, k;

	if (hb_file_read_raw(&macros, macros_p) != 0 || hb_file_read_raw(&protos, protos_p) != 0 ||
		hb_file_read_raw(&api, api_p) != 0)
		goto out;
	macros.data = realloc(macros.data, macros.len + 1);
	protos.data = realloc(protos.data, protos.len + 1);
	api.data = realloc(api.data, api.len + 1);
	macros.data[macros.len] = protos.data[protos.len] = api.data[api.len] = 0;
	{
		char *name = hb_sprintf("%s.h", op);
		f = open_memstream(&text, &len);
		fprintf(f, "#ifndef %s_H\n#define %s_H\n\n#include \"%s.h\"\n\n", op, op, opp);
		{
			char *copy = hb_strdup((char *)macros.data);
			for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
				if (S_names_op(line, op)) {
					char *mop = S_sub(line, op, opp);
					fprintf(f, "#define %s %s\n", line, mop);
					free(mop);
				}
			free(copy);
		}
		fprintf(f, "#define %s_PRIMITIVE \"%s\"\n#define %s_IMPLEMENTATION %s_IMPLEMENTATION\n"
			"#define %s_VERSION %s_VERSION\n\n#endif\n", op, prim, op, opp, op, opp);
		fclose(f);
		rc = S_write(dir, name, text, len);
		free(name);
		free(text);
		text = NULL;
	}
	for (k = 0; rc == 0 && k < 2; k++) {
		char *oppk = k ? hb_sprintf("%s_publicinputs", opp) : hb_strdup(opp), *name;
		char *copy;
		f = open_memstream(&text, &len);
		fprintf(f, "#ifndef %s_H\n#define %s_H\n\n", oppk, oppk);
		/* sed 's/[ \t]CRYPTO_/ opi_/g' < api.h */
		for (i = 0; i < api.len; i++) {
			if ((api.data[i] == ' ' || api.data[i] == '\t') &&
				strncmp((char *)api.data + i + 1, "CRYPTO_", 7) == 0) {
				fprintf(f, " %s_", opi);
				i += 7;
				continue;
			}
			fputc(api.data[i], f);
		}
		fprintf(f, " \n#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
		copy = hb_strdup((char *)protos.data);
		for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (S_names_op(line, op)) {
				char *l2 = S_sub(line, op, opi);
				fprintf(f, "%s\n", l2);
				free(l2);
			}
		free(copy);
		fprintf(f, "#ifdef __cplusplus\n}\n#endif\n\n");
		copy = hb_strdup((char *)macros.data);
		for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (S_names_op(line, op)) {
				char *mopi = S_sub(line, op, opi), *mopp = S_sub(mopi, opi, oppk);
				fprintf(f, "#define %s %s\n", mopp, mopi);
				free(mopi);
				free(mopp);
			}
		free(copy);
		fprintf(f, "#define %s_IMPLEMENTATION \"%s\"\n#ifndef %s_VERSION\n#define %s_VERSION \"-\"\n"
			"#endif\n#define %s_VERSION %s_VERSION\n\n#endif\n", oppk, path, opi, opi, oppk, opi);
		fclose(f);
		name = hb_sprintf("%s.h", oppk);
		rc = S_write(dir, name, text, len);
		free(name);
		free(oppk);
		free(text);
		text = NULL;
	}
out:
	hb_buf_free(&macros);
	hb_buf_free(&protos);
	hb_buf_free(&api);
	free(macros_p);
	free(protos_p);
	free(api_p);
	free(opp);
	return rc;
}

/* ---- running the compiler ---- */

static int S_argv_add(hb_strlist *a, const char *s)
{
	return hb_strlist_add(a, hb_strdup(s));
}

/* The compiler line split into words after it (do-part leaves the shell to split it). */
static void S_argv_compiler(hb_strlist *a, const char *compiler)
{
	char *copy = hb_strdup(compiler), *tok, *save = NULL;
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		S_argv_add(a, tok);
	free(copy);
}

/* Run argv; 0, or the one-line reason with the output kept in *log. */
static int S_run(char **log, char **argv, char **why, const char *what)
{
	char *output = NULL, *more;
	int status = hb_run_capture(&output, argv, S_COMPILE_LIMIT);
	more = hb_sprintf("%s$ %s\n%s", *log ? *log : "", what, output ? output : "");
	free(*log);
	*log = more;
	if (status == 0) {
		free(output);
		return 0;
	}
	if (status == HB_ETIMEOUT)
		*why = hb_sprintf("%s: no result after %d s", what, S_COMPILE_LIMIT);
	else if (status < 0)
		*why = hb_sprintf("%s: %s", what, hb_error_last());
	else if (output && strstr(output, "#error")) {
		const char *e = strstr(output, "#error");
		*why = hb_sprintf("refused to build by its own #error: %.*s", (int)strcspn(e, "\n"), e);
	} else if (output && strstr(output, "target specific option mismatch")) {
		const char *e = strstr(output, "inlining failed in call to");
		*why = hb_sprintf("needs a CPU feature this machine lacks (%.*s)",
			e ? (int)strcspn(e, "\n") : 30, e ? e : "target specific option mismatch");
	} else {
		static const char *telling[] = { "undefined reference", "relocation", "multiple definition",
			"No such file", "error" };
		const char *e = NULL;
		size_t k;
		for (k = 0; output && !e && k < sizeof(telling) / sizeof(telling[0]); k++)
			e = strstr(output, telling[k]);
		while (e && e > output && e[-1] != '\n')
			e--;
		*why = hb_sprintf("%s failed (exit status %d)%s%.*s", what, status, e ? ": " : "",
			e ? (int)strcspn(e, "\n") : 0, e ? e : "");
	}
	free(output);
	return HB_ERROR;
}

/* Run the command a (taken) for u: its output into u's log, the first failure's reason kept. */
static int S_run_unit(hb_sc_unit *u, hb_strlist *a, const char *what)
{
	char *why = NULL;
	int rc = S_run(&u->log, a->v, &why, what);
	if (rc != 0 && !u->error)
		u->error = why;
	else
		free(why);
	hb_strv_free(hb_strlist_take(a));
	return rc;
}

/* Put what a command wrote to tmp in its place (several kat-check processes may build the same
 * unit at once: each writes its own and the last rename wins, whole). */
static int S_settle(int rc, char *tmp, const char *path)
{
	if (rc == 0 && rename(tmp, path) != 0)
		rc = hb_error_set("%s: %s", path, strerror(errno));
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

/* Compile src (absolute) to obj with the compiler line, SUPERCOP's definitions and includes. */
static int S_compile(hb_sc_unit *u, const char *src, const char *obj, char *const *incs,
	int namespaced)
{
	hb_strlist a = { 0 };
	const char *name = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	char *tmp = hb_sprintf("%s.tmp%ld", obj, (long)getpid());
	size_t i;

	S_argv_compiler(&a, u->compiler);
	/* the line's -fPIE can make objects a shared library cannot hold (references to the C
	 * library's data, absolute addresses in assembly); -fPIC last overrides it */
	if (u->pic)
		S_argv_add(&a, "-fPIC");
	S_argv_add(&a, "-DSUPERCOP");
	if (namespaced) {
		hb_strlist_add(&a, hb_sprintf("-DCRYPTO_NAMESPACETOP=%s", u->opi));
		hb_strlist_add(&a, hb_sprintf("-D_CRYPTO_NAMESPACETOP=_%s", u->opi));
		hb_strlist_add(&a, hb_sprintf("-DCRYPTO_NAMESPACE(name)=%s_##name", u->opi));
		hb_strlist_add(&a, hb_sprintf("-D_CRYPTO_NAMESPACE(name)=_%s_##name", u->opi));
		hb_strlist_add(&a, hb_sprintf("-DCRYPTO_SHARED_NAMESPACE(name)=%s_##name", u->opi));
		hb_strlist_add(&a, hb_sprintf("-D_CRYPTO_SHARED_NAMESPACE(name)=_%s_##name", u->opi));
		S_argv_add(&a, "-DCRYPTO_ALIGN(n)=__attribute__((aligned(n)))");
	}
	for (i = 0; incs[i]; i++)
		hb_strlist_add(&a, hb_sprintf("-I%s", incs[i]));
	S_argv_add(&a, "-c");
	S_argv_add(&a, src);
	S_argv_add(&a, "-o");
	S_argv_add(&a, tmp);
	return S_settle(S_run_unit(u, &a, name), tmp, obj);
}

/* Link a program or the library: the compiler line, extra words, objects and libraries. */
static int S_link(hb_sc_unit *u, char *const *pre, char *const *objs1, char *const *objs2,
	char *const *objs3, const char *what)
{
	hb_strlist a = { 0 };
	char *const *lists[3] = { objs1, objs2, objs3 };
	static const char *libs[] = { S_LIBS };
	/* what a Rust static library needs of the system (cargo's native-static-libs) */
	static const char *rust_libs[] = { "-lpthread", "-ldl", "-lrt", "-lutil" };
	size_t i, k;

	S_argv_compiler(&a, u->compiler);
	for (i = 0; pre[i]; i++)
		S_argv_add(&a, pre[i]);
	for (k = 0; k < 3; k++)
		for (i = 0; lists[k] && lists[k][i]; i++)
			S_argv_add(&a, lists[k][i]);
	for (i = 0; i < sizeof(libs) / sizeof(libs[0]); i++)
		S_argv_add(&a, libs[i]);
	for (i = 0; u->language && strcmp(u->language, "rust") == 0 &&
		i < sizeof(rust_libs) / sizeof(rust_libs[0]); i++)
		S_argv_add(&a, rust_libs[i]);
	return S_run_unit(u, &a, what);
}

/* The objects into the archive do-part makes of them (okar cr lib<op>.a *.o, then ranlib), from
 * which the try programs and the library take only the members they need. */
static int S_archive(hb_sc_unit *u, const hb_sc_target *t)
{
	hb_strlist a = { 0 };
	char *tmp;
	size_t i;
	int rc;

	u->archive = hb_sprintf("%s/lib%s_%s.a", u->dir, t->operation, t->primitive);
	if (hb_is_file(u->archive))
		return 0;
	tmp = hb_sprintf("%s.tmp%ld", u->archive, (long)getpid());
	unlink(tmp);
	if (strcmp(u->language, "rust") == 0) {
		/* a Cargo project: its static library stands for the archive (supercop_rust.c) */
		rc = hb_sc_rust_build(&u->log, &u->error, u->dir, u->opi, u->compiler, tmp);
		return S_settle(rc, tmp, u->archive);
	}
	S_argv_add(&a, "ar");
	S_argv_add(&a, "cr");
	S_argv_add(&a, tmp);
	for (i = 0; u->objects[i]; i++)
		S_argv_add(&a, u->objects[i]);
	rc = S_run_unit(u, &a, "ar");
	if (rc == 0) {
		S_argv_add(&a, "ranlib");
		S_argv_add(&a, tmp);
		rc = S_run_unit(u, &a, "ranlib");
	}
	return S_settle(rc, tmp, u->archive);
}

/* ---- the framework: the try programs' cycle counter, random bytes and cryptoint ---- */

/* The objects every try program of this compiler line links (built once), and the folder of
 * the cpucycles.h they include. */
static int S_framework(hb_sc_unit *u, char ***objs, char **incdir, const char *tree,
	const char *work)
{
	static const char *ints[] = { "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
		"uint64" };
	unsigned char md[32];
	char hex[65], *dir, *cryptoint = hb_path_join(tree, "cryptoint");
	char *incs[3] = { NULL, cryptoint, NULL };
	char **c_lines = hb_sc_compilers(NULL, tree, "c");
	hb_sc_unit fwu;
	hb_strlist o = { 0 };
	size_t i;
	int rc = 0;

	/* SUPERCOP builds these with its first C compiler, whatever the implementation's language */
	memset(&fwu, 0, sizeof(fwu));
	fwu.compiler = c_lines ? c_lines[0] : u->compiler;
	{
		char *k = hb_sprintf("hashbench-2\n%s", fwu.compiler);
		hb_sha256(md, k, strlen(k));
		free(k);
	}
	hb_hex(hex, md, 8, 0);
	dir = hb_sprintf("%s/supercop/framework-%s", work, hex);
	incs[0] = dir;
	if (hb_mkdir_p(dir) != 0) {
		rc = HB_ERROR;
		goto out;
	}
	{
		char *src = hb_path_join(tree, "cpucycles/cpucycles.h"), *dst = hb_path_join(dir,
			"cpucycles.h");
		rc = S_copy(src, dst);
		free(src);
		free(dst);
	}
	if (rc == 0)
		rc = S_write_str(dir, "hashbench_cpucycles.c", S_cpucycles_c);
	for (i = 0; rc == 0 && i < 2 + sizeof(ints) / sizeof(ints[0]); i++) {
		char *src = i == 0 ? hb_path_join(dir, "hashbench_cpucycles.c") :
			i == 1 ? hb_path_join(tree, "kernelrandombytes/getrandom.c") :
			hb_sprintf("%s/%s_optblocker.c", cryptoint, ints[i - 2]);
		char *obj = hb_sprintf("%s/fw%zu.o", dir, i);
		if (!hb_is_file(obj))
			rc = S_compile(&fwu, src, obj, incs, 0);
		hb_strlist_add(&o, obj);
		free(src);
	}
out:
	if (fwu.error && !u->error)
		u->error = hb_sprintf("the try programs' framework: %s", fwu.error);
	free(fwu.error);
	free(fwu.log);
	hb_strv_free(c_lines);
	free(cryptoint);
	if (rc != 0) {
		free(dir);
		hb_strv_free(hb_strlist_take(&o));
		return HB_ERROR;
	}
	*incdir = dir;
	*objs = hb_strlist_take(&o);
	return 0;
}

/* ---- one unit ---- */

static int S_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The copy's top-level sources in do-part's order: C, assembly, C++ (.cc, .cpp). */
static int S_sources(hb_strlist *out, const char *dir, const char **language)
{
	static const char *kinds[] = { ".c", ".s", ".S", ".cc", ".cpp" };
	DIR *d = opendir(dir);
	struct dirent *de;
	hb_strlist names = { 0 };
	size_t i, k;
	if (!d)
		return hb_error_set("%s: %s", dir, strerror(errno));
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			hb_strlist_add(&names, hb_strdup(de->d_name));
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(char *), S_cmp);
	*language = "c";
	for (k = 0; k < 5; k++)
		for (i = 0; i < names.n; i++)
			if (S_has_suffix(names.v[i], kinds[k]) && (k > 0 || !S_has_suffix(names.v[i], ".cc"))) {
				hb_strlist_add(out, hb_path_join(dir, names.v[i]));
				if (k >= 3)
					*language = "cpp";
			}
	hb_strv_free(hb_strlist_take(&names));
	return 0;
}

static char *S_object_name(const char *src)
{
	const char *dot = strrchr(src, '.');
	return hb_sprintf("%.*s.o", (int)(dot - src), src);
}

/* The copy, the generated headers and try programs' sources in dir. */
static int S_prepare_dir(const char *dir, const char *tree, const char *op, const char *prim,
	const char *path, const char *opi)
{
	char *src = hb_path_join(tree, path), *p, *q;
	int rc = S_copy_tree(src, dir, 0), k;
	static const char *framework[] = { "try.c", "measure.c" };
	free(src);
	if (rc == 0)
		rc = S_headers(dir, tree, op, prim, path, opi);
	for (k = 0; rc == 0 && k < 2; k++) {
		p = hb_sprintf("%s/%s/%s", tree, op, framework[k]);
		q = hb_sprintf("%s/hashbench-%s", dir, framework[k]);
		rc = S_copy(p, q);
		free(p);
		free(q);
	}
	if (rc == 0) {
		p = hb_path_join(tree, "try-anything.c");
		q = hb_path_join(dir, "hashbench-try-anything.c");
		rc = S_copy(p, q);
		free(p);
		free(q);
	}
	for (k = 0; rc == 0 && k < 2; k++) {
		const char *inc = k ? "test-loops.inc" : "test-more.inc";
		p = hb_sprintf("%s/%s/%s/supercop/%s", tree, op, prim, inc);
		q = hb_path_join(dir, inc);
		rc = hb_is_file(p) ? S_copy(p, q) : hb_file_write_atomic(q, "", 0);
		free(p);
		free(q);
	}
	if (rc == 0)
		rc = S_write_str(dir, "hashbench-try-small.c",
			"#define SMALL\n#include \"hashbench-try.c\"\n");
	return rc;
}

int hb_sc_compile(hb_sc_unit **out, const hb_sc_target *t, const char *compiler,
	const char *work)
{
	hb_sc_unit *u = calloc(1, sizeof(*u));
	hb_strlist srcs = { 0 }, objs = { 0 }, incs = { 0 };
	char **fw = NULL, *fwinc = NULL, *key_text, hex[65], *p;
	unsigned char md[32];
	const char *language = "c";
	size_t i;

	*out = u;
	if (!u)
		return hb_error_set("out of memory");
	u->compiler = hb_strdup(compiler);
	u->opi = hb_sprintf("%s_timingleaks", t->path);
	for (p = u->opi; *p; p++)
		if (*p == '.' || *p == '/' || *p == '-')
			*p = '_';
	u->pic = t->pic;
	key_text = hb_sprintf("hashbench-3%s\n%s\n%s\n%s", t->pic ? " pic" : "", compiler, t->path,
		t->sources_sha256);
	for (i = 0; t->dep_objects && t->dep_objects[i]; i++) {
		char *more = hb_sprintf("%s\n%s", key_text, t->dep_objects[i]);
		free(key_text);
		key_text = more;
	}
	hb_sha256(md, key_text, strlen(key_text));
	free(key_text);
	hb_hex(hex, md, 8, 0);
	u->dir = hb_sprintf("%s/supercop/%s/%s", work, hex, t->path);
	if (S_framework(u, &fw, &fwinc, t->tree, work) != 0)
		goto done;
	if (!hb_is_dir(u->dir) || !(p = hb_path_join(u->dir, "hashbench-built")) || !hb_is_file(p) ||
		(free(p), 0)) {
		if (hb_mkdir_p(u->dir) != 0 || S_prepare_dir(u->dir, t->tree, t->operation,
				t->primitive, t->path, u->opi) != 0) {
			u->error = hb_strdup(hb_error_last());
			goto done;
		}
	}
	S_sources(&srcs, u->dir, &language);
	p = hb_path_join(u->dir, "Cargo.toml");
	if (hb_is_file(p))
		language = "rust";
	free(p);
	u->language = hb_strdup(language);
	hb_strlist_add(&incs, hb_strdup(u->dir));
	hb_strlist_add(&incs, hb_path_join(t->tree, "include"));
	hb_strlist_add(&incs, hb_path_join(t->tree, "cryptoint"));
	hb_strlist_add(&incs, hb_strdup(fwinc));
	for (i = 0; t->dep_dirs && t->dep_dirs[i]; i++)
		hb_strlist_add(&incs, hb_strdup(t->dep_dirs[i]));
	for (i = 0; i < srcs.n && !u->error; i++) {
		const char *base = strrchr(srcs.v[i], '/') + 1;
		char *obj;
		if (strncmp(base, "hashbench-", 10) == 0)
			continue;
		obj = S_object_name(srcs.v[i]);
		if (!hb_is_file(obj))
			S_compile(u, srcs.v[i], obj, incs.v, 1);
		hb_strlist_add(&objs, obj);
	}
	u->objects = hb_strlist_take(&objs);
	if (!u->error && S_archive(u, t) != 0 && !u->error)
		u->error = hb_strdup(hb_error_last());
	if (!u->error) {
		int k;
		for (k = 0; k < 2 && !u->error; k++) {
			char *prog = hb_sprintf("%s/hashbench-%s", u->dir, k ? "try" : "try-small");
			char *main_src = hb_sprintf("%s.c", prog), *any = hb_path_join(u->dir,
				"hashbench-try-anything.c");
			char *pre[32], *archive[2] = { u->archive, NULL };
			size_t n = 0;
			pre[n++] = (char *)"-DSUPERCOP";
			for (i = 0; incs.v[i] && n < 26; i++)
				pre[n++] = hb_sprintf("-I%s", incs.v[i]);
			pre[n++] = (char *)"-o";
			pre[n++] = hb_sprintf("%s.tmp%ld", prog, (long)getpid());
			pre[n++] = main_src;
			pre[n++] = any;
			pre[n] = NULL;
			if (strcmp(language, "cpp") == 0) {
				/* do-part compiles the programs as C++ too: try.cpp, try-anything.cpp */
				pre[n - 2] = hb_sprintf("%s.cpp", prog);
				pre[n - 1] = hb_sprintf("%s/hashbench-try-anything.cpp", u->dir);
				S_copy(main_src, pre[n - 2]);
				S_copy(any, pre[n - 1]);
			}
			if (!hb_is_file(prog))
				S_settle(S_link(u, pre, archive, t->dep_objects, fw, k ? "try" : "try-small"),
					hb_strdup(pre[n - 3]), prog);
			if (k)
				u->try_big = hb_strdup(prog);
			else
				u->try_small = hb_strdup(prog);
			for (i = 1; i < n - 4; i++)
				free(pre[i]);
			free(pre[n - 3]);
			if (strcmp(language, "cpp") == 0) {
				free(pre[n - 2]);
				free(pre[n - 1]);
			}
			free(prog);
			free(main_src);
			free(any);
		}
	}
	if (!u->error) {
		p = hb_path_join(u->dir, "hashbench-built");
		hb_file_write_atomic(p, "", 0);
		free(p);
	}
done:
	if (!u->log)
		u->log = hb_strdup("");
	hb_strv_free(hb_strlist_take(&srcs));
	hb_strv_free(hb_strlist_take(&incs));
	hb_strv_free(fw);
	free(fwinc);
	return 0;
}

int hb_sc_library(hb_build_result **out, const hb_sc_unit *u, const hb_sc_target *t,
	const char *work)
{
	hb_build_result *res = calloc(1, sizeof(*res));
	hb_sc_unit tmp;
	char *adapter = hb_sprintf("%s/hashbench-adapter.%s", u->dir, strcmp(u->language, "cpp") == 0 ?
		"cpp" : "c");
	char *adapter_o = hb_sprintf("%s/hashbench-adapter.o", u->dir);
	char *map = hb_path_join(u->dir, "hashbench-exports.map");
	char *incs[2] = { u->dir, NULL };
	char *lib = NULL, *mapflag = hb_sprintf("-Wl,--version-script=%s", map);
	char *pre[8];
	char *one[2] = { adapter_o, NULL }, *archive[2] = { u->archive, NULL };
	const char *sp;
	int rc = HB_ERROR;

	(void)work;
	*out = NULL;
	memset(&tmp, 0, sizeof(tmp));
	tmp.compiler = u->compiler;
	tmp.language = u->language;
	tmp.opi = u->opi;
	tmp.pic = u->pic;
	if (!res)
		return hb_error_set("out of memory");
	{
		unsigned char md[32];
		char hex[17];
		hb_sha256(md, S_adapter_c, sizeof(S_adapter_c));
		hb_hex(hex, md, 8, 0);
		res->library = hb_sprintf("%s/hashbench-%s-%s.so", u->dir, t->primitive, hex);
	}
	lib = hb_sprintf("%s.tmp%ld", res->library, (long)getpid());
	pre[0] = (char *)"-shared";
	pre[1] = (char *)"-Wl,--no-undefined";
	pre[2] = mapflag;
	pre[3] = (char *)"-o";
	pre[4] = lib;
	pre[5] = NULL;
	if (S_write_str(u->dir, strrchr(adapter, '/') + 1, S_adapter_c) != 0 ||
		hb_file_write_atomic(map, "{ global: CryptHash; local: *; };\n", 34) != 0)
		goto out;
	if (!hb_is_file(res->library)) {
		if (S_compile(&tmp, adapter, adapter_o, incs, 0) != 0 ||
			S_link(&tmp, pre, one, archive, t->dep_objects, "library") != 0) {
			hb_error_set("%s: the library did not link: %s", t->path, tmp.error);
			unlink(lib);
			goto out;
		}
		if (rename(lib, res->library) != 0) {
			hb_error_set("%s: %s", res->library, strerror(errno));
			goto out;
		}
	}
	sp = strchr(u->compiler, ' ');
	res->cc = sp ? strndup(u->compiler, (size_t)(sp - u->compiler)) : hb_strdup(u->compiler);
	res->cflags = hb_sprintf("%s%s", sp ? sp + 1 : "", u->pic ? " -fPIC" : "");
	res->profile = hb_strdup("supercop");
	res->command = hb_sprintf("%s -DSUPERCOP -DCRYPTO_NAMESPACE(name)=%s_##name … -c each "
		"source of %s; ar cr %s; %s -shared -Wl,--version-script (CryptHash only) -o %s",
		u->compiler, u->opi, t->path, strrchr(u->archive, '/') + 1, u->compiler, res->library);
	res->log = hb_strdup(tmp.log ? tmp.log : "");
	if (hb_sha256_file(res->library_sha256, res->library) != 0)
		goto out;
	rc = 0;
out:
	free(tmp.log);
	free(tmp.error);
	free(adapter);
	free(adapter_o);
	free(map);
	free(lib);
	free(mapflag);
	if (rc != 0) {
		hb_build_result_free(res);
		return rc;
	}
	*out = res;
	return 0;
}
