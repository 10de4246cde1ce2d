/* evidence_counter.c — system.json's counter: what was read, how its ticks become the figures of
 * the pages (cycles = ticks × core_hz / hz when a core clock is declared), and the one name of
 * their unit, "cycles" or "ticks", that every label of a system's pages takes. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "evidence.h"

int hg_counter_load(hg_system *s, json_t *counter, const char *file)
{
	json_t *v;
	const char *unit = NULL;
	int ticks;

	s->counts_core_cycles = -1;
	if (hg_ev_str(&s->counter, file, counter, "counter.", "name", 1) ||
		hg_ev_int(&s->counter_hz, file, counter, "counter.", "hz", 0) ||
		hg_ev_int(&s->core_hz, file, counter, "counter.", "core_hz", 0))
		return -1;
	v = json_object_get(counter, "counts_core_cycles");
	if (v && !json_is_null(v)) {
		if (!json_is_boolean(v))
			return hg_ev_bad(file, "counter.counts_core_cycles", "expected true or false");
		s->counts_core_cycles = json_is_true(v);
	}
	v = json_object_get(counter, "unit");
	if (v && !json_is_null(v)) {
		unit = json_string_value(v);
		if (!unit || (strcmp(unit, "cycles") != 0 && strcmp(unit, "ticks") != 0))
			return hg_ev_bad(file, "counter.unit", "expected \"cycles\" or \"ticks\"");
	}
	if (s->core_hz == 0)
		return hg_ev_bad(file, "counter.core_hz", "expected a clock in Hz above 0, or null");
	if (s->core_hz > 0 && s->counts_core_cycles == 1)
		return hg_ev_bad(file, "counter.core_hz", "declared for a counter that counts the "
			"core's cycles: nothing to convert");
	if (s->core_hz > 0 && s->counter_hz <= 0)
		return hg_ev_bad(file, "counter.core_hz", "declared without counter.hz: no rate to "
			"convert the ticks from");
	/* evidence of earlier versions says nothing of the unit: cntvct's figures were ticks */
	ticks = s->core_hz < 0 && (s->counts_core_cycles == 0 ||
		(s->counts_core_cycles < 0 && strcmp(s->counter, "cntvct") == 0));
	if (unit && strcmp(unit, ticks ? "ticks" : "cycles") != 0)
		return hg_ev_bad(file, "counter.unit", ticks ? "\"cycles\" contradicts a counter that "
			"does not count the core's cycles without a core_hz" : "\"ticks\" contradicts "
			"counts_core_cycles or core_hz (the figures are cycles)");
	s->unit = ticks ? "ticks" : "cycles";
	s->cycles_per_tick = s->core_hz > 0 ? (double)s->core_hz / (double)s->counter_hz : 0;
	return 0;
}

/* What campaigns before the counter's unit was recorded warned of any counter but perf-cycles. */
#define S_TSC_WARNING "no hardware cycle counter: cycles are counted by the time-stamp counter, " \
	"not by the core"

void hg_counter_warnings(hg_system *s)
{
	size_t i;
	char hz[32];
	if (strcmp(s->counter, "tsc") == 0 || !s->warnings)
		return;
	for (i = 0; s->warnings[i]; i++) {
		if (strcmp(s->warnings[i], S_TSC_WARNING) != 0)
			continue;
		free(s->warnings[i]);
		s->warnings[i] = hg_xprintf("no hardware cycle counter: the figures are ticks of %s%s%s, "
			"not the core's cycles (the hashbench that measured them wrote that the time-stamp "
			"counter counted them)", s->counter, s->counter_hz > 0 ? " at " : "",
			s->counter_hz > 0 ? hg_fmt_hz(hz, sizeof(hz), (double)s->counter_hz) : "");
	}
}

const char *hg_unit_name(const hg_system *s)
{
	return s->unit ? s->unit : "cycles";
}

static int S_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

char *hg_unit_words(const hg_system *s, char *text)
{
	const char *unit = hg_unit_name(s), *p;
	size_t n = 0, ulen = strlen(unit);
	char *out, *o;

	if (strcmp(unit, "cycles") == 0 || !text)
		return text;
	for (p = text; (p = strcasestr(p, "cycles")) != NULL; p += 6)
		n++;
	out = o = malloc(strlen(text) + n * ulen + 1);
	if (!out)
		abort();
	for (p = text; *p;) {
		/* a whole word: "cycles/byte", "Cycles are", not headline_cycles_per_byte */
		if (strncasecmp(p, "cycles", 6) == 0 && (p == text || !S_word_char(p[-1])) &&
			!S_word_char(p[6])) {
			memcpy(o, unit, ulen);
			if (isupper((unsigned char)p[0]))
				o[0] = (char)toupper((unsigned char)o[0]);
			o += ulen;
			p += 6;
		} else {
			*o++ = *p++;
		}
	}
	*o = 0;
	free(text);
	return out;
}
