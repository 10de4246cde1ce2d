/* page_units.c — the unit of a system's figures on its pages: labels named by hg_unit_name
 * ("cycles/byte" or "ticks/byte"), the environment's counter row and the method page's sentences
 * on which counter was read and how its readings became the figures. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"

const char *hg_unit_text(hg_arena *a, const hg_system *s, const char *text)
{
	char *own, *named;
	const char *out;
	if (strcmp(hg_unit_name(s), "cycles") == 0)
		return text;
	own = hg_xprintf("%s", text);
	named = hg_unit_words(s, own);
	out = hg_strdup(a, named);
	free(named);
	return out;
}

/* Every text under n named by s's unit. */
static void S_name_texts(hg_arena *a, const hg_system *s, hg_node *n)
{
	hg_node *c;
	for (c = n->first; c; c = c->next) {
		if (c->type == HG_TEXT && c->text)
			c->text = hg_unit_text(a, s, c->text);
		S_name_texts(a, s, c);
	}
}

void hg_unit_header(hg_arena *a, const hg_system *s, hg_node *table)
{
	if (strcmp(hg_unit_name(s), "cycles") == 0)
		return;
	if (table->title)
		table->title = hg_unit_text(a, s, table->title);
	if (table->first)
		S_name_texts(a, s, table->first);
}

const char *hg_unit_cell(hg_arena *a, const hg_system *s, const hg_system *cur,
	const char *text)
{
	if (strcmp(text, "—") == 0 || strcmp(hg_unit_name(s), hg_unit_name(cur)) == 0)
		return text;
	return hg_printf(a, "%s %s", text, hg_unit_name(s));
}

const char *hg_counter_row(hg_arena *a, const hg_system *s)
{
	char hz[32], core[32];
	const char *at = s->counter_hz > 0 ? hg_printf(a, "%s at %s", s->counter,
		hg_fmt_hz(hz, sizeof(hz), (double)s->counter_hz)) : s->counter;

	if (s->core_hz > 0)
		return hg_printf(a, "%s; cycles = ticks × %s (the declared core clock) / %s", at,
			hg_fmt_hz(core, sizeof(core), (double)s->core_hz), hz);
	if (strcmp(hg_unit_name(s), "ticks") == 0)
		return hg_printf(a, "%s: not the core's clock; the figures are counter ticks", at);
	if (strcmp(s->counter, "perf-cycles") == 0)
		return hg_printf(a, "%s: the core's cycles", at);
	if (strcmp(s->counter, "tsc") == 0)
		return hg_printf(a, "%s: the time-stamp counter, taken for the core's cycles", at);
	return at;
}

/* The method page's sentence on what the counter's readings are. */
static const char *S_counter_unit(hg_arena *a, const hg_system *s)
{
	char hz[32], core[32];
	if (s->core_hz > 0)
		return hg_printf(a, "It is not the core's clock: it ticks at its own rate whatever the "
			"core's clock. The campaign declared the core's fixed clock, %s (--core-hz %lld), "
			"and every figure called cycles is its ticks converted: cycles = ticks × %lld / %lld "
			"(%.6g cycles a tick). The records keep the ticks as they were read and system.json "
			"the two rates, so each figure can be checked against its record; the conversion "
			"holds only while the core ran at that clock.",
			hg_fmt_hz(core, sizeof(core), (double)s->core_hz), s->core_hz, s->core_hz,
			s->counter_hz, s->cycles_per_tick);
	if (strcmp(hg_unit_name(s), "ticks") == 0)
		return hg_printf(a, "It is not the core's clock: it ticks at its own rate (%s) whatever "
			"the core's clock, so the figures are its ticks, and every page of this system "
			"calls them ticks (ticks/byte, mean ticks), not cycles. A campaign run with "
			"--core-hz declares the core's fixed clock to convert them to cycles.",
			s->counter_hz > 0 ? hg_fmt_hz(hz, sizeof(hz), (double)s->counter_hz) :
			"not recorded");
	if (strcmp(s->counter, "perf-cycles") == 0)
		return "It counts the core's cycles: the figures called cycles are its readings.";
	if (strcmp(s->counter, "tsc") == 0)
		return "Its ticks are taken for the core's cycles: the time-stamp counter runs at the "
			"processor's nominal clock, which is the core's only while the core's clock is held "
			"there.";
	return "Its readings are called cycles.";
}

/* A count of counter readings in the unit of the pages: "3 ticks", "43.4 cycles (1 tick)". */
static const char *S_readings(hg_arena *a, const hg_system *s, double ticks)
{
	if (s->cycles_per_tick > 0)
		return hg_printf(a, "%.1f cycles (%.1f %s)", ticks * s->cycles_per_tick, ticks,
			ticks == 1 ? "tick" : "ticks");
	return hg_printf(a, "%.1f %s", ticks, hg_unit_name(s));
}

const char *hg_counter_lookup(hg_arena *a, const hg_system *s, const char *name)
{
	char hz[32];
	if (strcmp(name, "counter") == 0)
		return s->counter;
	if (strcmp(name, "unit") == 0)
		return hg_unit_name(s);
	if (strcmp(name, "counter-hz") == 0)
		return s->counter_hz > 0 ? hg_strdup(a, hg_fmt_hz(hz, sizeof(hz),
			(double)s->counter_hz)) : "its own rate (core cycles)";
	if (strcmp(name, "counter-unit") == 0)
		return S_counter_unit(a, s);
	if (strcmp(name, "counter-read") == 0)
		return s->counter_read_cycles < 0 ? "not measured" : s->cycles_per_tick > 0 ?
			S_readings(a, s, (double)s->counter_read_cycles) :
			hg_printf(a, "%lld %s", s->counter_read_cycles, hg_unit_name(s));
	if (strcmp(name, "empty-call") == 0)
		return s->empty_call_cycles < 0 ? "not measured" :
			S_readings(a, s, s->empty_call_cycles);
	return NULL;
}
