/* protection.c — what protected the machine while a system was measured: the paragraph of its
 * method page, from system.json's "sandbox" object, and whether the sandbox was off. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"

typedef struct {
	char *s;
	size_t len;
} S_str;

static void S_add(S_str *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void S_add(S_str *b, const char *fmt, ...)
{
	char *more;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&more, fmt, ap) >= 0) {
		char *grown = realloc(b->s, b->len + strlen(more) + 1);
		if (grown) {
			memcpy(grown + b->len, more, strlen(more) + 1);
			b->s = grown;
			b->len += strlen(more);
		}
		free(more);
	}
	va_end(ap);
}

/* "a, b and c" from a JSON array of strings */
static void S_list(S_str *b, json_t *arr, const char *code)
{
	size_t i, n = json_array_size(arr);
	for (i = 0; i < n; i++) {
		const char *v = json_string_value(json_array_get(arr, i));
		S_add(b, "%s%s%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", code, v ? v : "?", code);
	}
}

static void S_bytes(S_str *b, json_t *v)
{
	long long n = json_integer_value(v);
	if (n >= (1LL << 30) && n % (1LL << 30) == 0)
		S_add(b, "%lld GiB", n >> 30);
	else if (n >= (1LL << 20) && n % (1LL << 20) == 0)
		S_add(b, "%lld MiB", n >> 20);
	else
		S_add(b, "%lld bytes", n);
}

char *hg_sandbox_describe(json_t *sb, int *off)
{
	S_str b = { NULL, 0 };
	json_t *limits = json_object_get(sb, "limits"), *v;

	*off = -1;
	if (!json_is_object(sb))
		return hg_xstrdup("Not recorded: this evidence was written by a hashbench version without "
			"a sandbox, so submission code ran with hashbench's own rights.");
	if (!json_is_true(json_object_get(sb, "enabled"))) {
		*off = 1;
		return hg_xstrdup("Not sandboxed: this campaign ran with --no-sandbox, which exists "
			"for debugging: submission code ran with hashbench's own rights, without namespaces, "
			"system-call filter or resource limits.");
	}
	*off = 0;
	S_add(&b, "Every process that ran submission code (KAT generation, the timing driver, the "
		"empty call) was set up by hashbench's sandbox before it loaded the library:");
	if (json_array_size(json_object_get(sb, "namespaces"))) {
		S_add(&b, " new ");
		S_list(&b, json_object_get(sb, "namespaces"), "");
		S_add(&b, " namespaces (the network without a usable interface; when the child ended, "
			"everything it had started ended with its PID namespace);");
	} else {
		S_add(&b, " no namespaces (the kernel refused them);");
	}
	if ((v = json_object_get(sb, "filesystem")) && json_is_string(v))
		S_add(&b, " the file system %s;", strcmp(json_string_value(v), "read-only, private "
			"working folder") == 0 ? "read-only except an empty private working folder, removed "
			"afterwards" : json_string_value(v));
	if (json_is_true(json_object_get(sb, "landlock")))
		S_add(&b, " Landlock rules (ABI %lld) that leave the system's programs and libraries "
			"readable and hide everything else;", json_integer_value(json_object_get(sb,
			"landlock_abi")));
	else
		S_add(&b, " no Landlock (the kernel does not offer it);");
	if ((v = json_object_get(sb, "user")) && json_is_string(v))
		S_add(&b, " the user %s, with no new privileges;", json_string_value(v));
	if (json_is_object(limits)) {
		S_add(&b, " limits on CPU time (the time limit)");
		if (json_is_integer(json_object_get(limits, "address_space_bytes"))) {
			S_add(&b, ", address space (");
			S_bytes(&b, json_object_get(limits, "address_space_bytes"));
			S_add(&b, ")");
		}
		S_add(&b, ", file size (%lld), open files (%lld), new processes (%lld) and core dumps "
			"(none);", json_integer_value(json_object_get(limits, "file_size_bytes")),
			json_integer_value(json_object_get(limits, "open_files")),
			json_integer_value(json_object_get(limits, "processes")));
	}
	if (json_is_true(json_object_get(sb, "seccomp"))) {
		S_add(&b, " and, once the library was loaded and its constructors had run, before its "
			"first call, a seccomp filter that allows only ");
		S_list(&b, json_object_get(sb, "allowed_calls"), "");
		S_add(&b, ". Any other system call stops the process, and its record says violation "
			"with the call's name.");
	} else {
		S_add(&b, " but no system-call filter (the kernel does not offer seccomp).");
	}
	if (json_is_object(limits) && json_is_integer(json_object_get(limits, "output_bytes")))
		S_add(&b, " What a library printed is kept as text in its record or KAT log (at most "
			"%lld KiB), never read as a result.",
			json_integer_value(json_object_get(limits, "output_bytes")) / 1024);
	S_add(&b, " Hashing makes no system calls inside the timed loop, so the sandbox does not "
		"change the figures (the README gives the measurement).");
	return b.s ? b.s : hg_xstrdup("");
}
