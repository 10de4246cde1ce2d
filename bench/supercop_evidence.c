/* supercop_evidence.c — a SUPERCOP implementation in a campaign: its checksum evidence (the KAT
 * summary and log, with every compiler setting tried) and the "supercop" object its records
 * carry. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hbcampaign.h"

static json_t *S_settings_json(const hb_sc_report *rep)
{
	json_t *a = json_array();
	size_t k;
	for (k = 0; k < rep->nsettings; k++) {
		const hb_sc_setting *s = &rep->settings[k];
		json_t *j = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "compiler",
			s->compiler, "result", s->result, "detail", hb_json_str_or_null(s->detail),
			"checksumsmall", hb_json_str_or_null(s->small[0] ? s->small : NULL),
			"checksumbig", hb_json_str_or_null(s->big[0] ? s->big : NULL),
			"cycles", hb_json_int_or_null(s->cycles));
		if (s->ratio > 0) /* timed in turns with the fastest by try's median (supercop_pick.c) */
			json_object_set_new(j, "in_turns", json_pack("{s:f, s:f, s:f, s:I, s:b, s:b}",
				"ratio", s->ratio, "low", s->low, "high", s->high, "rounds",
				(json_int_t)s->rounds, "kept", (int)k == rep->chosen, "within_noise_of_kept",
				s->within_noise));
		json_array_append_new(a, j);
	}
	return a;
}

const char *hb_run_supercop(hb_run *r, const hb_instance *inst, hb_build_result **out_b)
{
	char *dir = hb_sprintf("%s/kat/%s", r->sysdir, inst->algorithm->id);
	char *stem = hb_instance_stem(inst);
	char *json_path = hb_sprintf("%s/%s.json", dir, stem), *log_path = hb_sprintf("%s/%s.log",
		dir, stem), *logtext = NULL;
	size_t loglen = 0;
	const char *result;
	hb_sc_report rep;
	json_t *j, *sc;
	FILE *log = open_memstream(&logtext, &loglen);

	*out_b = NULL;
	hb_mkdir_p(dir);
	fprintf(log, "hashbench %s checksums of %s by SUPERCOP's own try.c and try-anything.c "
		"(SUPERCOP %s, %s)\n", HB_VERSION, inst->supercop->path, inst->supercop->version ?
		inst->supercop->version : "no version file", inst->supercop->tree);
	if (hb_sc_check(&rep, out_b, inst, r->o->compilers, r->o->work, r->o->time_limit_s,
			log) != 0) {
		memset(&rep, 0, sizeof(rep));
		rep.rep.result = "ERROR";
		rep.rep.detail = hb_strdup(hb_error_last());
		rep.chosen = -1;
	}
	fprintf(log, "result: %s%s%s\n", rep.rep.result, rep.rep.detail ? ": " : "",
		rep.rep.detail ? rep.rep.detail : "");
	fclose(log);
	j = json_object();
	json_object_set_new(j, "schema", json_string("hashbench.kat/1"));
	json_object_set_new(j, "instance", json_string(inst->name));
	json_object_set_new(j, "implementation", json_string(inst->impl));
	json_object_set_new(j, "build_flags", json_string("supercop"));
	json_object_set_new(j, "cflags", *out_b ? json_string((*out_b)->cflags) : json_null());
	json_object_set_new(j, "library_sha256", *out_b ? json_string((*out_b)->library_sha256) :
		json_null());
	json_object_set_new(j, "files", hb_run_kat_files_json(&rep.rep));
	json_object_set_new(j, "sets_mask", json_integer(3));
	json_object_set_new(j, "scope", json_string("all"));
	json_object_set_new(j, "result", json_string(rep.rep.result));
	json_object_set_new(j, "detail", hb_json_str_or_null(rep.rep.detail));
	sc = hb_run_supercop_json(inst, *out_b);
	json_object_set_new(sc, "compilers", S_settings_json(&rep));
	json_object_set_new(j, "supercop", sc);
	result = hb_run_kat_result(rep.rep.result);
	if (hb_file_write_atomic(log_path, logtext, loglen) != 0 || hb_json_write(json_path, j) != 0)
		hb_note(r->o->progress, r->tty, "%s", hb_error_last());
	json_decref(j);
	hb_sc_report_clear(&rep);
	free(logtext);
	free(dir);
	free(stem);
	free(json_path);
	free(log_path);
	return result;
}
