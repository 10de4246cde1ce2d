/* fuzz_evidence.c — libFuzzer target: hashgen's evidence reader (hg_data_load, hg_sysalg_load
 * and the figures of the records) on a minimal data/ tree whose system.json, timing record, KAT
 * summary, catalog entry or sentinel.json is the input; the first byte chooses the file, the
 * rest its content. */
#include <stdlib.h>
#include <string.h>

#include "pages.h"
#include "fuzzutil.h"

/* the files of the tree; the first five can be replaced by an input */
enum { EV_SYSTEM, EV_RECORD, EV_KAT, EV_ENTRY, EV_SENTINEL, EV_SUMS, EV_NFILES };
#define EV_INPUTS 5

static const struct {
	const char *rel, *text;
} S_files[EV_NFILES + 2] = {
	[EV_SYSTEM] = { "data/x86_1/system.json",
		"{\"schema\": \"hashbench.system/1\", \"system\": \"x86_1\", \"arch\": \"x86_64\",\n"
		" \"processor\": \"cpu\", \"cpu\": 2, \"clock\": {\"governor\": \"performance\",\n"
		" \"min_khz\": 800000, \"max_khz\": 2100000, \"boost\": {\"name\": \"turbo\", \"state\": \"off\"},\n"
		" \"smt\": \"off\"}, \"memory_mib\": 31788, \"os\": \"Debian\", \"kernel\": \"6.1\",\n"
		" \"compiler\": \"gcc\", \"build_tool\": \"cmake\", \"counter\": {\"name\": \"perf-cycles\",\n"
		" \"hz\": null}, \"overhead\": {\"counter_read_cycles\": 20, \"empty_call_cycles\": 4.5,\n"
		" \"subtracted\": true}, \"virtual_machine\": false, \"warnings\": [\"w\"],\n"
		" \"campaign\": {\"start\": \"2026-09-25T10:02:21Z\", \"end\": \"2026-09-28T10:51:21Z\",\n"
		" \"profile\": \"guide\", \"hashbench\": \"0.1.0\", \"rounds\": 5, \"round_ms\": 600,\n"
		" \"max_calls\": 20000, \"spread_limit_pct\": 5, \"sentinel\": {\"limit_pct\": 3.0,\n"
		" \"workload\": \"w\", \"readings\": 3, \"disturbed_records\": 0, \"remeasured_records\": 1,\n"
		" \"median_cycles\": {\"2\": 4012000}}}}\n" },
	[EV_RECORD] = { "data/x86_1/records/hash-15/litchi_256__hash_32.json",
		"{\"schema\": \"hashbench.record/1\", \"system\": \"x86_1\", \"algorithm\": \"hash-15\",\n"
		" \"instance\": \"litchi_256\", \"implementation\": \"reference\", \"operation\": \"hash_32\",\n"
		" \"message_bytes\": 32, \"output_bytes\": 32, \"status\": \"ok\", \"kat\": null,\n"
		" \"build\": {\"flags\": \"guide\"},\n"
		" \"trials\": [{\"iterations\": 20000, \"cycles\": 24400000, \"ns\": 11619047},\n"
		"  {\"iterations\": 20000, \"cycles\": 24424399, \"ns\": 11630666}],\n"
		" \"samples\": [1220, 1226, 1225, 1224, 1223], \"disturbed\": false, \"retries\": [],\n"
		" \"resources\": {\"static_bytes\": 4096, \"baseline_rss_kib\": 1024, \"peak_rss_kib\": null,\n"
		"  \"stack_bytes\": 10016, \"heap_peak_bytes\": 0, \"heap_allocations\": 0, \"mmap_bytes\": null,\n"
		"  \"text_bytes\": 3072, \"data_bytes\": 1024},\n"
		" \"sentinel\": {\"before\": 4010000, \"after\": 4020000, \"reference\": 4012000.5,\n"
		"  \"deviation_pct\": 0.2, \"limit_pct\": 3}}\n" },
	[EV_KAT] = { "data/x86_1/kat/hash-15/litchi_256.json",
		"{\"schema\": \"hashbench.kat/1\", \"instance\": \"litchi_256\",\n"
		" \"implementation\": \"reference\", \"build_flags\": \"guide\", \"result\": \"PASS\",\n"
		" \"detail\": null, \"scope\": \"byte-aligned\"}\n" },
	[EV_ENTRY] = { "data/algorithms/hash-15.json",
		"{\"id\": \"hash-15\", \"name\": \"Litchi\", \"category\": \"hash\", \"function\": \"hash\",\n"
		" \"parameter_sets\": [\"litchi_512\", \"litchi_256\"],\n"
		" \"links\": {\"security_evaluation\": {\"label\": \"report\", \"href\": \"docs/r.pdf\"},\n"
		" \"submission\": {\"label\": \"page\", \"href\": \"https://example.org/hash-15\"}}}\n" },
	[EV_SENTINEL] = { "data/x86_1/sentinel.json",
		"{\"schema\": \"hashbench.sentinel/1\", \"workload\": \"w\", \"limit_pct\": 3.0,\n"
		" \"readings\": [{\"time\": \"2026-12-01T07:00:01Z\", \"t_s\": 0.0, \"cpu\": 2, \"record\": null,\n"
		"  \"when\": \"calibration\", \"attempt\": 0, \"cycles\": 4012345, \"ns\": 1337000},\n"
		" {\"time\": \"2026-12-01T07:00:03Z\", \"t_s\": 2.5, \"cpu\": 2,\n"
		"  \"record\": \"records/hash-15/litchi_256__hash_32.json\", \"when\": \"before\", \"attempt\": 1,\n"
		"  \"cycles\": 4410000, \"ns\": 1436000}]}\n" },
	/* listed files with and without a match, and one listed but missing */
	[EV_SUMS] = { "data/x86_1/SHA256SUMS",
		"0000000000000000000000000000000000000000000000000000000000000000  kat/hash-15/kat.sha256\n"
		"1111111111111111111111111111111111111111111111111111111111111111  kat/hash-15/litchi_256.json\n"
		"2222222222222222222222222222222222222222222222222222222222222222 *kat/hash-15/gone.json\n"
		"3333333333333333333333333333333333333333333333333333333333333333  records/hash-15/litchi_256__hash_32.json\n"
		"4444444444444444444444444444444444444444444444444444444444444444  system.json\n" },
	[EV_NFILES] = { "data/x86_1/kat/hash-15/kat.sha256",
		"1111111111111111111111111111111111111111111111111111111111111111  KAT_2_12_litchi_256.txt\n" },
	[EV_NFILES + 1] = { "data/x86_1/kat/hash-15/litchi_256.log", "result: PASS\n" },
};

static char *S_data;

static void S_make(void)
{
	size_t i;
	if (S_data)
		return;
	for (i = 0; i < sizeof(S_files) / sizeof(S_files[0]); i++)
		hbf_write_str(S_files[i].rel, S_files[i].text);
	S_data = hbf_path("data");
}

static void S_restore(int which)
{
	hbf_write_str(S_files[which].rel, S_files[which].text);
}

static void S_set(int which, const void *data, size_t len)
{
	hbf_write(S_files[which].rel, data, len);
}

static void S_load(void)
{
	hg_data *d;
	size_t i, k;

	if (hg_data_load(&d, S_data) != 0)
		return;
	for (i = 0; i < d->nsystems; i++) {
		const hg_system *s = &d->systems[i];
		char sum[65];
		hg_system_sum(sum, s, "system.json");
		if (s->sentinel && s->sentinel->traced) {
			char *svg;
			size_t len;
			if (hg_sentinel_svg(&svg, &len, s) == 0)
				free(svg);
		}
		for (k = 0; s->algorithms[k]; k++) {
			hg_sysalg sa;
			hg_fig *figs;
			size_t n;
			if (hg_sysalg_load(&sa, d, s, s->algorithms[k]) != 0)
				continue;
			if (hg_figs_of(&figs, &n, d, s, s->algorithms[k], &sa) == 0)
				hg_figs_free(figs, n);
			hg_sysalg_clear(&sa);
		}
	}
	hg_data_free(d);
	/* the read buffer of this thread stays, as in hashgen's loading threads */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int last = -1;
	int which;

	S_make();
	if (size < 1)
		return 0;
	which = data[0] % EV_INPUTS; /* EV_SYSTEM, EV_RECORD, EV_KAT, EV_ENTRY or EV_SENTINEL */
	if (last >= 0 && last != which)
		S_restore(last);
	S_set(which, data + 1, size - 1);
	last = which;
	S_load();
	return 0;
}
