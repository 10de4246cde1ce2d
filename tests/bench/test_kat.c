/* test_kat.c — the ICCS KAT procedure: the generator reproduces the ICCS files for SM3 byte for
 * byte, the comparison names the first differing entry, manifests are accepted in both forms. */
#include <stdlib.h>
#include <string.h>

#include "hbkat.h"
#include "support.h"

static hb_buf S_read(const char *path)
{
	hb_buf buf;
	cr_assert_eq(hb_file_read(&buf, path), 0, "%s", hb_error_last());
	return buf;
}

static void S_expect_reproduces(hb_kat_set set, const char *shared_name)
{
	char *dir, *want_path, *got_path;
	hb_buf want, got;

	HBT_REQUIRE_SHARED();
	dir = hbt_tmpdir("katgen");
	want_path = hbt_shared_path(shared_name);
	got_path = hb_path_join(dir, "out.txt");
	cr_assert_eq(hb_kat_generate(hbt_impl("SM3"), "SM3", 256, set, got_path, 0), 0, "%s",
		hb_error_last());
	want = S_read(want_path);
	got = S_read(got_path);
	cr_expect_eq(got.len, want.len, "KAT_%s: %zu bytes written, the ICCS file has %zu",
		hb_kat_set_name(set), got.len, want.len);
	cr_expect(got.len == want.len && memcmp(got.data, want.data, got.len) == 0,
		"KAT_%s differs from %s", hb_kat_set_name(set), shared_name);
	hb_buf_free(&want);
	hb_buf_free(&got);
	free(dir);
	free(want_path);
	free(got_path);
}

Test(kat, generator_reproduces_iccs_2_12_for_sm3)
{
	S_expect_reproduces(HB_KAT_2_12, "kat/ngcc/KAT_2_12_SM3.txt.gz");
}

Test(kat, generator_reproduces_iccs_2_23_for_sm3)
{
	S_expect_reproduces(HB_KAT_2_23, "kat/ngcc/KAT_2_23_SM3.txt");
}

Test(kat, generator_reproduces_iccs_loop_for_sm3, .timeout = HBT_TIMEOUT(600))
{
	S_expect_reproduces(HB_KAT_LOOP, "kat/ngcc/KAT_Loop_SM3.txt");
}

static const char S_two[] =
	"Msg_Len = 8\nMsg = 61\nDst_Len = 256\nDst = AAAA\n\n"
	"Msg_Len = 9\nMsg = 6180\nDst_Len = 256\nDst = BBBB\n\n";

Test(kat, compare_ignores_carriage_returns_and_trailing_blanks)
{
	static const char crlf[] =
		"Msg_Len = 8\r\nMsg = 61  \r\nDst_Len = 256\r\nDst = AAAA\r\n\r\n"
		"Msg_Len = 9\r\nMsg = 6180\t\r\nDst_Len = 256\r\nDst = BBBB\r\n\r\n\r\n";
	size_t entries = 0;
	char a[65], b[65];

	cr_assert_eq(hb_kat_compare(crlf, strlen(crlf), S_two, strlen(S_two), &entries), 0, "%s",
		hb_error_last());
	cr_expect_eq(entries, 2);
	hb_kat_normalised_sha256(a, crlf, strlen(crlf));
	hb_kat_normalised_sha256(b, S_two, strlen(S_two));
	cr_expect_str_eq(a, b, "CRLF and LF files have one normalised form");
}

Test(kat, compare_names_the_first_differing_entry)
{
	static const char got[] =
		"Msg_Len = 8\nMsg = 61\nDst_Len = 256\nDst = AAAA\n\n"
		"Msg_Len = 9\nMsg = 6180\nDst_Len = 256\nDst = CCCC\n\n";
	cr_assert_neq(hb_kat_compare(S_two, strlen(S_two), got, strlen(got), NULL), 0);
	cr_expect_str_eq(hb_error_last(), "Msg_Len = 9: Dst differs: expected BBBB, got CCCC");
}

Test(kat, compare_reports_missing_entries)
{
	static const char got[] = "Msg_Len = 8\nMsg = 61\nDst_Len = 256\nDst = AAAA\n\n";
	cr_assert_neq(hb_kat_compare(S_two, strlen(S_two), got, strlen(got), NULL), 0);
	cr_expect_str_eq(hb_error_last(), "expected 2 entries, got 1");
}

Test(kat, sets_parse_names_and_rejects_unknown)
{
	unsigned mask = 0;
	cr_assert_eq(hb_kat_sets_parse(&mask, "2_12,loop"), 0);
	cr_expect_eq(mask, (1u << HB_KAT_2_12) | (1u << HB_KAT_LOOP));
	cr_expect_neq(hb_kat_sets_parse(&mask, "2_12,2_99"), 0);
	cr_expect(strstr(hb_error_last(), "'2_99'") != NULL, "%s", hb_error_last());
}

/* An SM3 instance whose submitted 2_23 file (or manifest line) the test chooses. */
static hb_instance S_sm3_with(const char *file, const char *manifest_hex)
{
	hb_instance inst = *hbt_instance("SM3");
	int s;
	for (s = 0; s < HB_KAT_NSETS; s++) {
		inst.kat_files[s] = NULL;
		inst.kat_manifest[s] = NULL;
		inst.kat_manifest_file[s] = NULL;
	}
	inst.kat_files[HB_KAT_2_23] = (char *)file;
	inst.kat_manifest[HB_KAT_2_23] = (char *)manifest_hex;
	inst.kat_manifest_file[HB_KAT_2_23] = manifest_hex ? "kat.sha256" : NULL;
	return inst;
}

static hb_kat_report S_check(const hb_instance *inst, const char *name)
{
	hb_kat_report rep;
	char *dir = hbt_tmpdir(name);
	cr_assert_eq(hb_kat_check(&rep, inst, hbt_library("SM3"), 0, dir, 0, NULL), 0, "%s",
		hb_error_last());
	free(dir);
	return rep;
}

Test(kat, check_accepts_gzip_and_crlf_submissions)
{
	char *dir = hbt_tmpdir("katsub"), *gz = hb_path_join(dir, "KAT_2_23_SM3.txt.gz");
	char *plain = hb_path_join(dir, "KAT_2_23_SM3.txt"), *cmd;
	hb_instance inst;
	hb_kat_report rep;
	hb_buf sub;

	HBT_REQUIRE_SHARED();
	/* the ICCS file with CRLF line ends, gzip-compressed */
	sub = S_read(HBT_SHARED_DIR "/kat/ngcc/KAT_2_23_SM3.txt");
	cmd = hb_sprintf("sed 's/$/\\r/' '%s' | gzip -n > '%s'",
		HBT_SHARED_DIR "/kat/ngcc/KAT_2_23_SM3.txt", gz);
	cr_assert_eq(system(cmd), 0);
	inst = S_sm3_with(gz, NULL);
	rep = S_check(&inst, "katgz");
	cr_expect_str_eq(rep.result, "PASS", "%s", rep.detail ? rep.detail : "");
	cr_expect_eq(rep.files[HB_KAT_2_23].entries, 3);
	hb_kat_report_clear(&rep);

	/* one digit changed: FAIL with the entry */
	sub.data[strstr((char *)sub.data, "Dst = 607C") - (char *)sub.data + 6] = 'D';
	hbt_write(plain, sub.data, sub.len);
	inst = S_sm3_with(plain, NULL);
	rep = S_check(&inst, "katbad");
	cr_expect_str_eq(rep.result, "FAIL");
	cr_expect(rep.detail && strncmp(rep.detail, "KAT_2_23: Msg_Len = 8388608: Dst differs: "
		"expected D07C578377A4", 62) == 0, "%s", rep.detail ? rep.detail : "(none)");
	hb_kat_report_clear(&rep);
	hb_buf_free(&sub);
	free(cmd);
	free(gz);
	free(plain);
	free(dir);
}

Test(kat, check_accepts_manifest_in_raw_and_normalised_form)
{
	char raw[65], norm[65];
	unsigned char md[32];
	hb_instance inst;
	hb_kat_report rep;
	hb_buf sub;

	HBT_REQUIRE_SHARED();
	sub = S_read(HBT_SHARED_DIR "/kat/ngcc/KAT_2_23_SM3.txt");
	hb_sha256(md, sub.data, sub.len);
	hb_hex(raw, md, 32, 0);
	hb_kat_normalised_sha256(norm, (char *)sub.data, sub.len);
	cr_assert_str_neq(raw, norm);

	inst = S_sm3_with(NULL, raw);
	rep = S_check(&inst, "katraw");
	cr_expect_str_eq(rep.result, "PASS");
	cr_expect_str_eq(rep.files[HB_KAT_2_23].detail, "matches the manifest (raw form)");
	hb_kat_report_clear(&rep);

	inst = S_sm3_with(NULL, norm);
	rep = S_check(&inst, "katnorm");
	cr_expect_str_eq(rep.result, "PASS");
	cr_expect_str_eq(rep.files[HB_KAT_2_23].detail, "matches the manifest (normalised form)");
	hb_kat_report_clear(&rep);

	norm[0] = norm[0] == '0' ? '1' : '0';
	inst = S_sm3_with(NULL, norm);
	rep = S_check(&inst, "katwrong");
	cr_expect_str_eq(rep.result, "FAIL");
	cr_expect(strstr(rep.detail, "sha256 differs from kat.sha256") != NULL, "%s", rep.detail);
	hb_kat_report_clear(&rep);
	hb_buf_free(&sub);
}

Test(kat, check_reports_a_requested_set_without_files)
{
	hb_instance inst = S_sm3_with(NULL, NULL);
	hb_kat_report rep;
	char *dir = hbt_tmpdir("katmissing");

	cr_assert_eq(hb_kat_check(&rep, &inst, hbt_library("SM3"), 1u << HB_KAT_2_12, dir, 0, NULL), 0);
	cr_expect_str_eq(rep.result, "ERROR");
	cr_expect_str_eq(rep.files[HB_KAT_2_12].result, "MISSING");
	cr_expect(strstr(rep.detail, "KAT_2_12_SM3.txt") != NULL, "%s", rep.detail);
	hb_kat_report_clear(&rep);
	free(dir);
}
