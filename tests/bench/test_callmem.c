/* test_callmem.c — the exact memory of a call: fixtures of known use (a 10 000-byte stack array
 * and one malloc of 12 345 bytes; nothing at all; a 65 536-byte mmap of its own) measured in every
 * record, at every message size of the guide, under the reference and the optimised build
 * profile (the fixture's Reference_Implementation copied as an Optimized_Implementation); the
 * static size split into text and data. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "support.h"

#define MEMUSE HBT_FIXTURES "/memuse"
/* The call's own frame beside its array (registers, locals, return address) and what the C
 * library's malloc (or mmap) uses of the stack when the call calls it; AddressSanitizer's
 * malloc records a stack trace there, a few KiB. */
#ifdef __SANITIZE_ADDRESS__
#define FRAME 4096
#else
#define FRAME 512
#endif

static const unsigned long long S_sizes[] = { 32, 128, 512, 1024, 4096, 8192, 16384, 65536 };

static long long S_res(json_t *rec, const char *key)
{
	json_t *v = json_object_get(json_object_get(rec, "resources"), key);
	cr_assert(json_is_integer(v), "resources.%s is not an integer", key);
	return (long long)json_integer_value(v);
}

Test(memory, every_record_measures_the_fixtures_known_use, .timeout = HBT_TIMEOUT(600))
{
	char *data = hbt_tmpdir("memuse"), *sys = hb_path_join(data, "mem"), *out, *err;
	char *pkg = hbt_tmpdir("memuse-pkg"), *cmd = hb_sprintf("cp -r '%s/.' '%s' && cp -r "
		"'%s/Pkg/Implementations/Reference_Implementation' '%s/Pkg/Implementations/"
		"Optimized_Implementation'", MEMUSE, pkg, pkg, pkg);
	const char *args[] = { "run", "--system", "mem", "--profile", "quick", "--submissions",
		pkg, "--data", data, "--time-failed", "--sets", "2_23", "--sentinel-limit", "1000",
		NULL };
	static const char *const insts[] = { "stack_256", "zero_256", "map_256" };
	static const char *const impls[] = { "", ".optimized" };
	size_t i, k, s;

	cr_assert_eq(system(cmd), 0, "%s", cmd);
	hbt_cli(&out, &err, NULL, args); /* exit 1: the fixtures ship no KAT files */
	cr_assert(strstr(err, "campaign mem finished: 48 records measured") != NULL, "%s", err);
	for (i = 0; i < 3; i++)
		for (k = 0; k < 2; k++)
			for (s = 0; s < sizeof(S_sizes) / sizeof(S_sizes[0]); s++) {
				char *rel = hb_sprintf("records/memuse/%s%s__hash_%llu.json", insts[i],
					impls[k], S_sizes[s]);
				json_t *rec = hbt_json_load(sys, rel);
				long long stack = S_res(rec, "stack_bytes"), heap = S_res(rec, "heap_peak_bytes");
				long long allocs = S_res(rec, "heap_allocations"), map = S_res(rec, "mmap_bytes");
				json_t *call = json_object_get(rec, "memory_call");
				const char *mode = json_string_value(json_array_get(json_object_get(call,
					"command"), json_array_size(json_object_get(call, "command")) - 1));

				cr_expect_str_eq(json_string_value(json_object_get(rec, "status")), "ok", "%s", rel);
				cr_expect_str_eq(json_string_value(json_object_get(json_object_get(rec, "build"),
					"profile")), k ? "optimized" : "reference", "%s", rel);
				cr_expect_str_eq(mode ? mode : "", "memory", "%s: memory_call.command", rel);
				cr_expect_eq(S_res(rec, "text_bytes") + S_res(rec, "data_bytes"),
					S_res(rec, "static_bytes"), "%s: text + data is the static size", rel);
				cr_expect_gt(S_res(rec, "text_bytes"), 0, "%s", rel);
				cr_expect_gt(S_res(rec, "data_bytes"), 0, "%s", rel);
				if (i == 0) {
					cr_expect(stack >= 10000 && stack <= 10000 + FRAME,
						"%s: stack %lld bytes, expected 10000 to %d", rel, stack, 10000 + FRAME);
					cr_expect_eq(heap, 12345, "%s: heap peak %lld", rel, heap);
					cr_expect_eq(allocs, 1, "%s: %lld allocations", rel, allocs);
					cr_expect_eq(map, 0, "%s: mmap %lld", rel, map);
				} else {
					/* the mmap fixture calls into the C library (or the sanitizer's mmap),
					 * whose own frames count like malloc's */
					long long most = i == 2 ? FRAME : 256;
					cr_expect(stack >= 0 && stack <= most, "%s: stack %lld bytes, expected at "
						"most %lld", rel, stack, most);
					cr_expect_eq(heap, 0, "%s: heap peak %lld", rel, heap);
					cr_expect_eq(allocs, 0, "%s: %lld allocations", rel, allocs);
					cr_expect_eq(map, i == 2 ? 65536 : 0, "%s: mmap %lld", rel, map);
				}
				json_decref(rec);
				free(rel);
			}
	free(out);
	free(err);
	free(sys);
	free(data);
	free(pkg);
	free(cmd);
}

Test(memory, the_baselines_need_no_heap_and_little_stack, .timeout = HBT_TIMEOUT(300))
{
	char *data = hbt_tmpdir("membase"), *sys = hb_path_join(data, "mb"), *out, *err;
	const char *args[] = { "run", "--system", "mb", "--profile", "quick", "--only", "sm3",
		"--data", data, "--sizes", "1024", "--sets", "2_23", "--sentinel-limit", "1000", NULL };
	json_t *rec;

	cr_assert_eq(hbt_cli(&out, &err, NULL, args), 0, "%s", err);
	rec = hbt_json_load(sys, "records/sm3/SM3__hash_1024.json");
	/* SM3's reference keeps its 64-word expansion and state on the stack: hundreds of bytes */
	cr_expect(S_res(rec, "stack_bytes") > 300 && S_res(rec, "stack_bytes") < 4096, "stack %lld",
		S_res(rec, "stack_bytes"));
	cr_expect_eq(S_res(rec, "heap_allocations"), 0);
	cr_expect_eq(S_res(rec, "heap_peak_bytes"), 0);
	json_decref(rec);
	free(out);
	free(err);
	free(sys);
	free(data);
}
